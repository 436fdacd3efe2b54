/**
 * The messages format with the official `@anthropic-ai/sdk`, unchanged but for base
 * URL and key; chat-completions callers of messages-format models through `openai`;
 * the cloud platform with SigV4 or an API key and its binary event stream.
 */
import Anthropic from "@anthropic-ai/sdk";
import { beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { ANTHROPIC_AT_MOCK, atMock, BEDROCK_AT_MOCK, createProvidersAtMock, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

let anthropic: Anthropic;
let bedrockId: string;
const VENDOR_KEY = "sk-ant-api03-vendor-key-for-tests-0000";

const stack = stackPerFile({ providers: [{ ...ANTHROPIC_AT_MOCK, apiKey: VENDOR_KEY }] });

beforeAll(async () => {
  const bedrock = await stack.gw.op(stack.org.apiKey, "provider.create", atMock(BEDROCK_AT_MOCK, stack.mock.url));
  expect(bedrock.status).toBe(200);
  bedrockId = bedrock.body.data.provider.id;
  await createProvidersAtMock(stack.gw, stack.org.apiKey, stack.mock.url, [{ ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456" }]);
  anthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 });
});

const weatherTool = {
  name: "get_weather",
  description: "Weather for a city",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

describe("the vendor directly, with @anthropic-ai/sdk", () => {
  test("plain: the caller's version header and the provider key reach the vendor", async () => {
    const msg = await anthropic.messages.create({
      model: "claude-sonnet-4-0",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(msg.type).toBe("message");
    expect(msg.role).toBe("assistant");
    expect(msg.model).toBe("claude-sonnet-4-0");
    expect(msg.content[0]?.type).toBe("text");
    expect(msg.usage.input_tokens).toBeGreaterThan(0);
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen).toMatchObject({ path: "/v1/messages", apiKey: VENDOR_KEY });
    // Newer SDKs send newer version dates; whatever the caller sends passes through.
    expect(seen.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(seen.body.system).toBe("Be brief.");
  });

  test("streaming with messages.stream, the event stream passed through", async () => {
    const stream = anthropic.messages.stream({
      model: "claude-sonnet-4-0",
      max_tokens: 100,
      messages: [{ role: "user", content: "Stream please" }],
    });
    let text = "";
    stream.on("text", (t) => {
      text += t;
    });
    const final = await stream.finalMessage();
    expect(text.length).toBeGreaterThan(10);
    expect(final.stop_reason).toBe("end_turn");
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  test("tool use, system as blocks, and images", async () => {
    const msg = await anthropic.messages.create({
      model: "claude-sonnet-4-0",
      max_tokens: 100,
      system: [{ type: "text", text: "You are a weather bot." }],
      tools: [weatherTool],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Weather in Paris?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          ],
        },
      ],
    });
    expect(msg.stop_reason).toBe("tool_use");
    expect(msg.content[0]).toMatchObject({ type: "tool_use", name: "get_weather" });
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen.body.messages[0].content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    });
    expect(seen.body.tools[0].name).toBe("get_weather");
  });

  test("msg-version 2023-06-01 is accepted; anthropic-version (any date) and anthropic-* headers pass through, the gateway key does not", async () => {
    const res = await fetch(`${stack.gw.url}/v1/messages`, {
      method: "POST",
      headers: {
        "x-api-key": stack.org.apiKey,
        "msg-version": "2023-06-01",
        // Not the default (2023-06-01), so the gateway's own fallback cannot pass for it: the vendor's header stays the vendor's to judge.
        "anthropic-version": "2024-01-01",
        "anthropic-beta": "tools-2024-05-16",
        "anthropic-dangerous-direct-browser-access": "true",
        "x-stainless-lang": "js",
        "content-type": "application/json",
      },
      body: JSON.stringify({ model: "claude-sonnet-4-0", max_tokens: 10, messages: [{ role: "user", content: "x" }] }),
    });
    expect(res.status).toBe(200);
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen.url).toBe("/v1/messages");
    expect(seen.headers).toMatchObject({
      "anthropic-version": "2024-01-01",
      "anthropic-beta": "tools-2024-05-16",
      "anthropic-dangerous-direct-browser-access": "true",
      "x-api-key": VENDOR_KEY,
    });
    expect(seen.headers["msg-version"]).toBeUndefined();
    expect(seen.headers["x-stainless-lang"]).toBeUndefined();
    expect(JSON.stringify(seen.headers)).not.toContain(stack.org.apiKey);
  });

  test("a msg-version other than 2023-06-01 is a 400 naming the supported value, before anything is sent", async () => {
    const before = (await stack.mock.requests()).length;
    const versioned = new Anthropic({
      baseURL: stack.gw.url,
      apiKey: stack.org.apiKey,
      maxRetries: 0,
      defaultHeaders: { "msg-version": "2024-01-01" },
    });
    const hi = [{ role: "user" as const, content: "x" }];
    for (const call of [
      () => versioned.messages.create({ model: "claude-sonnet-4-0", max_tokens: 10, messages: hi }),
      () => versioned.messages.countTokens({ model: "claude-sonnet-4-0", messages: hi }),
    ]) {
      const err = await call().catch((e) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect(err.error).toMatchObject({ type: "error", error: { type: "invalid_request_error", code: "invalid_request" } });
      expect(err.error.error.message).toBe('msg-version: the supported value is 2023-06-01, not "2024-01-01"');
    }
    expect((await stack.mock.requests()).length).toBe(before);
    // Without msg-version (the SDK sends anthropic-version only) the call goes through.
    const ok = await anthropic.messages.create({ model: "claude-sonnet-4-0", max_tokens: 10, messages: hi });
    expect(ok.type).toBe("message");
  });

  test("a Bearer gateway key is not forwarded either", async () => {
    const res = await fetch(`${stack.gw.url}/v1/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${stack.org.apiKey}`,
        "anthropic-version": "2023-06-01",
        "anthropic-beta": "b-2025-01-01",
        "content-type": "application/json",
      },
      body: JSON.stringify({ model: "claude-sonnet-4-0", max_tokens: 10, messages: [{ role: "user", content: "x" }] }),
    });
    expect(res.status).toBe(200);
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen.headers["anthropic-beta"]).toBe("b-2025-01-01");
    expect(seen.headers.authorization).toBeUndefined();
    expect(JSON.stringify(seen.headers)).not.toContain(stack.org.apiKey);
  });

  test("errors use the messages envelope", async () => {
    const unknown = await anthropic.messages
      .create({ model: "no-such-model", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect(unknown.error).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    const otherFormat = await anthropic.messages
      .create({ model: "gpt-4o", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(otherFormat.status).toBe(400);
    expect(otherFormat.error.error.message).toContain("/v1/chat/completions");
    const invalid = await anthropic.messages
      .create({ model: "claude-sonnet-4-0", messages: [{ role: "user", content: "x" }] } as never)
      .catch((e) => e);
    expect(invalid.status).toBe(400);
    expect(invalid.error.error.type).toBe("invalid_request_error");
    expect(invalid.error.error.message).toContain("max_tokens");
    const badKey = new Anthropic({ baseURL: stack.gw.url, apiKey: "gw_live_nope", maxRetries: 0 });
    expect(
      await badKey.messages
        .create({ model: "claude-sonnet-4-0", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
        .catch((e) => e),
    ).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  test("substitution is refused, plain (502) and streamed (an error event, then the end)", async () => {
    const plain = await anthropic.messages
      .create({ model: "anthropic/swap-claude-haiku-4-5", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(plain.status).toBe(502);
    expect(plain.error).toMatchObject({ type: "error", error: { type: "api_error" } });
    const res = await fetch(`${stack.gw.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": stack.org.apiKey, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: "anthropic/swap-claude-haiku-4-5",
        max_tokens: 10,
        stream: true,
        messages: [{ role: "user", content: "x" }],
      }),
    });
    const text = await res.text();
    expect(text.startsWith("event: error\n")).toBe(true);
    expect(text).toContain("model_substitution_detected");
    expect(text).not.toContain("content_block_delta");
  });

  test("an answer that is not a JSON object is 502, in the messages envelope, and so is its translation for a chat caller", async () => {
    const plain = await anthropic.messages
      .create({ model: "anthropic/garbled-claude-haiku-4-5", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(plain.status).toBe(502);
    expect(plain.error).toMatchObject({ type: "error", error: { type: "api_error" } });
    expect(plain.error.error.message).toContain("not a JSON object");
    const chat = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
    const translated = await chat.chat.completions
      .create({ model: "anthropic/garbled-claude-haiku-4-5", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(translated.status).toBe(502);
    expect(translated.error.code).toBe("provider_error");
  });
});

describe("chat-completions callers of messages-format models, with openai", () => {
  const client = () => new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });

  test("plain, translated both ways", async () => {
    const res = await client().chat.completions.create({
      model: "claude-sonnet-4-0",
      max_tokens: 50,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
    expect(res.object).toBe("chat.completion");
    expect(res.choices[0]?.message.content).toBeTruthy();
    expect(res.choices[0]?.finish_reason).toBe("stop");
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen.path).toBe("/v1/messages");
    expect(seen.body).toMatchObject({ system: "Be brief.", max_tokens: 50 });
  });

  test("streaming with tools: tool_calls deltas, then [DONE]", async () => {
    const stream = await client().chat.completions.create({
      model: "claude-sonnet-4-0",
      stream: true,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [
        { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } },
      ],
    });
    let name = "";
    let args = "";
    let finish: string | null | undefined;
    let sawUsage = false;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      name += call?.function?.name ?? "";
      args += call?.function?.arguments ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) sawUsage = true;
    }
    expect(name).toBe("get_weather");
    expect(JSON.parse(args)).toEqual({ city: "Paris" });
    expect(finish).toBe("tool_calls");
    expect(sawUsage).toBe(false);
  });

  test("streaming text with usage when asked", async () => {
    const stream = await client().chat.completions.create({
      model: "claude-sonnet-4-0",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "Hi" }],
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(10);
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
  });
});

describe("the cloud platform", () => {
  const platformModel = "anthropic.claude-3-5-haiku-20241022-v1:0";

  test("SigV4-signed InvokeModel, plain", async () => {
    const msg = await anthropic.messages.create({
      model: platformModel,
      max_tokens: 50,
      messages: [{ role: "user", content: "Hello platform" }],
    });
    expect(msg.content[0]?.type).toBe("text");
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen.path).toBe(`/model/${encodeURIComponent(platformModel)}/invoke`);
    expect(seen.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=.*x-amz-content-sha256.*, Signature=[0-9a-f]{64}$/,
    );
    expect(seen.amzDate).toMatch(/^\d{8}T\d{6}Z$/);
    expect(seen.body).toMatchObject({ anthropic_version: "bedrock-2023-05-31", max_tokens: 50 });
    expect(seen.body.model).toBeUndefined();
  });

  test("InvokeModelWithResponseStream: the binary event stream re-emitted as server-sent events", async () => {
    const stream = anthropic.messages.stream({
      model: platformModel,
      max_tokens: 50,
      messages: [{ role: "user", content: "Stream from the platform" }],
    });
    let text = "";
    stream.on("text", (t) => {
      text += t;
    });
    const final = await stream.finalMessage();
    expect(text.length).toBeGreaterThan(10);
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    expect((await stack.mock.requests()).at(-1)?.path).toEndWith("/invoke-with-response-stream");
  });

  test("chat-completions callers reach the platform too, streamed", async () => {
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: platformModel, stream: true, messages: [{ role: "user", content: "x" }] });
    let text = "";
    for await (const c of stream) text += c.choices[0]?.delta.content ?? "";
    expect(text.length).toBeGreaterThan(10);
  });

  test("substitution on the platform, streamed", async () => {
    const res = await fetch(`${stack.gw.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": stack.org.apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        model: "anthropic.swap-claude-3-5-haiku-20241022-v1:0",
        max_tokens: 10,
        stream: true,
        messages: [{ role: "user", content: "x" }],
      }),
    });
    const text = await res.text();
    expect(text.startsWith("event: error\n")).toBe(true);
    expect(text).toContain("model_substitution_detected");
  });

  test("a Bedrock API key is sent as a bearer token", async () => {
    expect(
      (await stack.gw.op(stack.org.apiKey, "provider.update", { id: bedrockId, apiKey: "bedrock-api-key-ABSKexample1234" })).status,
    ).toBe(200);
    await anthropic.messages.create({ model: platformModel, max_tokens: 10, messages: [{ role: "user", content: "x" }] });
    expect((await stack.mock.requests()).at(-1)?.authorization).toBe("Bearer bedrock-api-key-ABSKexample1234");
  });
});

describe("sandbox keys in the messages format", () => {
  test("plain, streamed and with tools; nothing reaches a provider", async () => {
    const key = (await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "sandbox", keyType: "test" })).body
      .data.apiKey.key;
    const sandbox = new Anthropic({ baseURL: stack.gw.url, apiKey: key, maxRetries: 0 });
    const before = (await stack.mock.requests()).length;
    const plain = await sandbox.messages.create({
      model: "claude-sonnet-4-0",
      max_tokens: 50,
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(plain.content[0]?.type).toBe("text");
    const final = await sandbox.messages
      .stream({ model: "anthropic.claude-3-5-haiku-20241022-v1:0", max_tokens: 50, messages: [{ role: "user", content: "Hi" }] })
      .finalMessage();
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    const tool = await sandbox.messages.create({
      model: "claude-sonnet-4-0",
      max_tokens: 50,
      tools: [weatherTool],
      messages: [{ role: "user", content: "Paris?" }],
    });
    expect(tool.stop_reason).toBe("tool_use");
    expect((await stack.mock.requests()).length).toBe(before);
  });

  test("errors are exactly the live key's: unknown model, chat-format model, embeddings of a messages model", async () => {
    const key = (
      await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "sandbox-errors", keyType: "test" })
    ).body.data.apiKey.key;
    const post = async (apiKey: string, path: string, body: object) => {
      const res = await fetch(`${stack.gw.url}${path}`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const before = (await stack.mock.requests()).length;
    const calls: [string, object, number][] = [
      ["/v1/messages", { model: "no-such-model", max_tokens: 10, messages: [{ role: "user", content: "x" }] }, 404],
      ["/v1/messages", { model: "gpt-4o", max_tokens: 10, messages: [{ role: "user", content: "x" }] }, 400],
      ["/v1/embeddings", { model: "claude-sonnet-4-0", input: "x" }, 400],
    ];
    for (const [path, body, status] of calls) {
      const sandboxed = await post(key, path, body);
      const live = await post(stack.org.apiKey, path, body);
      expect([path, sandboxed.status]).toEqual([path, status]);
      expect(sandboxed).toEqual(live);
    }
    expect((await post(key, "/v1/embeddings", { model: "claude-sonnet-4-0", input: "x" })).body.error.code).toBe("wrong_endpoint");
    // Only the live calls reached the mock: none of them got past their checks either.
    expect((await stack.mock.requests()).length).toBe(before);
  });
});
