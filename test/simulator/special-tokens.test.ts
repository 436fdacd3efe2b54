/**
 * Text holding special-token look-alikes (`<|endoftext|>`, `<|im_start|>`) is plain text
 * to every token count: no 500 from a capped key's spend estimate, a sandbox key's
 * simulator, or the mock provider.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

const SYSTEM = "You are terse.<|endoftext|> Reply in English.<|im_start|>system<|im_end|>";

const stack = stackPerFile({
  providers: [
    { ...OPENAI_AT_MOCK, apiKey: "sk-mock-openai-0001" },
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-mock-0001" },
  ],
});

async function keyOf(params: object): Promise<string> {
  const r = await stack.gw.op(stack.org.apiKey, "org.service-account.create", params);
  expect(r.status).toBe(200);
  return r.body.data.apiKey.key;
}

async function messagesCall(key: string, stream: boolean) {
  const res = await fetch(`${stack.gw.url}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
    body: JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      stream,
      system: SYSTEM,
      messages: [{ role: "user", content: "hi" }],
    }),
  });
  return { status: res.status, text: await res.text() };
}

describe("a capped live key (the spend reservation estimates the prompt)", () => {
  let client: OpenAI;
  let key: string;
  beforeAll(async () => {
    key = await keyOf({ serviceAccountName: "capped", spendCapCents: 500, monthlyCapCents: 500 });
    client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
  });

  test("chat completions, plain and streamed, answer 200 and the provider gets the text unchanged", async () => {
    const plain = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "hi" },
      ],
    });
    expect(plain.object).toBe("chat.completion");
    expect(plain.usage?.prompt_tokens).toBeGreaterThan(10);
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen.body.messages[0].content).toBe(SYSTEM);
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      stream: true,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "hi" },
      ],
    });
    let text = "";
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? "";
    expect(text.length).toBeGreaterThan(0);
  });

  test("near its cap, where the reservation runs the tokenizer, such a prompt is admitted and answered", async () => {
    // 1 cent = 10,000 micro-dollars. At gpt-4o-mini's $0.15 per million input tokens this prompt's byte
    // ceiling (one token per byte, ~72,000) is refused, so the reservation counts it with the tokenizer
    // (~27,000 tokens), which fits: exactly the path that threw on look-alikes.
    const nearCap = new OpenAI({
      baseURL: `${stack.gw.url}/v1`,
      apiKey: await keyOf({ serviceAccountName: "near-cap", spendCapCents: 1 }),
      maxRetries: 0,
    });
    const system = SYSTEM.repeat(1000);
    expect(Buffer.byteLength(system) * 0.15).toBeGreaterThan(10_000);
    const res = await nearCap.chat.completions.create({
      model: "gpt-4o-mini",
      max_tokens: 5,
      messages: [
        { role: "system", content: system },
        { role: "user", content: "hi" },
      ],
    });
    expect(res.object).toBe("chat.completion");
    expect(res.usage!.prompt_tokens * 0.15).toBeLessThan(10_000);
  });

  test("the messages format with the look-alikes in system answers 200", async () => {
    const plain = await messagesCall(key, false);
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.text).type).toBe("message");
    const streamed = await messagesCall(key, true);
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain("event: message_stop");
  });

  test("ai.cost estimates such a prompt instead of failing", async () => {
    const r = await stack.gw.op(stack.org.apiKey, "ai.cost", {
      model: "gpt-4o-mini",
      messages: [{ role: "system", content: SYSTEM }],
      max_tokens: 10,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.promptTokens).toBeGreaterThan(10);
  });
});

describe("a sandbox key (the simulator counts the prompt)", () => {
  let client: OpenAI;
  let key: string;
  beforeAll(async () => {
    key = await keyOf({ serviceAccountName: "sandbox", keyType: "test" });
    client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
  });

  test("plain, streamed and tool-calling chat completions answer 200", async () => {
    const messages = [
      { role: "system" as const, content: SYSTEM },
      { role: "user" as const, content: "hi" },
    ];
    const plain = await client.chat.completions.create({ model: "gpt-4o", messages });
    expect(plain.usage?.prompt_tokens).toBeGreaterThan(10);
    const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, messages });
    let text = "";
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? "";
    expect(text).toBe(plain.choices[0]?.message.content ?? "");
    // With tools the look-alikes in the system prompt are counted as well, and the call is made.
    const tools = await client.chat.completions.create({
      model: "gpt-4o",
      messages,
      tools: [
        {
          type: "function",
          function: { name: "f", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
        },
      ],
    });
    const call = tools.choices[0]?.message.tool_calls?.[0];
    expect(tools.usage?.prompt_tokens).toBe(plain.usage?.prompt_tokens);
    expect(JSON.parse(call?.type === "function" ? call.function.arguments : "")).toEqual({ query: "hi" });
  });

  test("the messages format answers 200, plain and streamed", async () => {
    expect((await messagesCall(key, false)).status).toBe(200);
    expect((await messagesCall(key, true)).status).toBe(200);
  });
});

test("the mock provider answers such text directly in JSON, never an HTML 500", async () => {
  const post = (path: string, body: object) =>
    fetch(`${stack.mock.url}${path}`, {
      method: "POST",
      headers: { authorization: "Bearer k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const chat = await post("/v1/chat/completions", { model: "gpt-4o", messages: [{ role: "user", content: `say ${SYSTEM}` }] });
  expect(chat.status).toBe(200);
  expect(((await chat.json()) as any).usage.prompt_tokens).toBeGreaterThan(10);
  const emb = await post("/v1/embeddings", { model: "text-embedding-3-small", input: [SYSTEM, "<|endofprompt|>"] });
  expect(emb.status).toBe(200);
  const msg = await post("/v1/messages", {
    model: "claude-sonnet-4-5",
    max_tokens: 64,
    system: SYSTEM,
    messages: [{ role: "user", content: "<|endoftext|>" }],
  });
  expect(msg.status).toBe(200);
  expect(msg.headers.get("content-type")).toContain("application/json");
});
