/**
 * Translated calls through the whole gateway, at a provider that answers oddly on
 * purpose: a chat-completions caller at a messages-format provider, and a Responses
 * caller at a chat-format one. What the caller reads (envelopes, usage details, the end
 * of a stream that the provider never finished) and what the call is charged (one usage
 * row with the provider's counts, or the estimate when it sent none). The provider is a
 * small server of its own, steered by model name (the mock provider answers well).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import type { UsageEvent } from "../../src/domain/types.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

const encoder = new TextEncoder();
const sse = (events: string[]) =>
  new Response(
    new ReadableStream({
      start(c) {
        for (const e of events) c.enqueue(encoder.encode(e));
        c.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
const msgEvent = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const chatEvent = (data: object) => `data: ${JSON.stringify(data)}\n\n`;

const messageStart = (model: string, usage: object) =>
  msgEvent("message_start", {
    message: { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, usage },
  });
const textBlock = (words: string[]) => [
  msgEvent("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  ...words.map((w) => msgEvent("content_block_delta", { index: 0, delta: { type: "text_delta", text: w } })),
];
const chatChunk = (model: string, delta: object, finish: string | null = null) =>
  chatEvent({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

/** A messages stream that sends its start (a prompt of 1,234 tokens) and one piece, then nothing until the gateway hangs up. */
function stalled(model: string, req: Request): Response {
  return new Response(
    new ReadableStream({
      start(c) {
        c.enqueue(encoder.encode(messageStart(model, { input_tokens: 1234, output_tokens: 1 })));
        for (const e of textBlock(["The "])) c.enqueue(encoder.encode(e));
        req.signal.addEventListener("abort", () => c.close());
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

/** The provider's answer for each model: messages-format ones under /v1/messages, chat ones under /v1/chat/completions. */
function answer(model: string, req: Request): Response {
  switch (model) {
    case "msg-stall":
      return stalled(model, req);
    // A messages stream that stops after its text: no message_delta, no message_stop.
    case "msg-no-stop":
      return sse([messageStart(model, { input_tokens: 50, output_tokens: 1 }), ...textBlock(["The ", "sea ", "is ", "wide."])]);
    // A messages stream the provider breaks off with an error event (overloaded), after some text.
    case "msg-error":
      return sse([
        messageStart(model, { input_tokens: 50, output_tokens: 1 }),
        ...textBlock(["The ", "sea "]),
        msgEvent("error", { error: { type: "overloaded_error", message: "Overloaded" } }),
      ]);
    // A whole stream with cache reads, and input counted again on message_delta as the vendor now writes it.
    case "msg-cached":
      return sse([
        messageStart(model, { input_tokens: 10, cache_read_input_tokens: 40, output_tokens: 1 }),
        ...textBlock(["Hi."]),
        msgEvent("content_block_stop", { index: 0 }),
        msgEvent("message_delta", {
          delta: { stop_reason: "end_turn" },
          usage: { input_tokens: 10, cache_read_input_tokens: 40, output_tokens: 7 },
        }),
        msgEvent("message_stop", {}),
      ]);
    // Text, then two tool calls in parallel: one whose arguments come in pieces, one without parameters.
    case "msg-tools":
      return sse([
        messageStart(model, { input_tokens: 20, output_tokens: 1 }),
        ...textBlock(["Checking."]),
        msgEvent("content_block_stop", { index: 0 }),
        msgEvent("content_block_start", { index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "weather", input: {} } }),
        ...['{"ci', 'ty": "Os', 'lo"}'].map((p) =>
          msgEvent("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: p } }),
        ),
        msgEvent("content_block_stop", { index: 1 }),
        msgEvent("content_block_start", { index: 2, content_block: { type: "tool_use", id: "toolu_2", name: "now", input: {} } }),
        msgEvent("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: "" } }),
        msgEvent("content_block_stop", { index: 2 }),
        msgEvent("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 30 } }),
        msgEvent("message_stop", {}),
      ]);
    // A whole messages answer whose content is text where a list of blocks belongs.
    case "msg-odd":
      return Response.json({ id: "msg_2", type: "message", model, content: "plain text", usage: { input_tokens: 30, output_tokens: 5 } });
    // A chat stream that never reports usage (servers that ignore stream_options.include_usage).
    case "chat-no-usage":
      return sse([
        chatChunk(model, { role: "assistant", content: "" }),
        ...["The ", "sea ", "is ", "wide."].map((w) => chatChunk(model, { content: w })),
        chatChunk(model, {}, "stop"),
        "data: [DONE]\n\n",
      ]);
    // Streams whose first event's data is JSON null, then a sound answer.
    case "chat-null":
      return sse([
        "data: null\n\n",
        chatChunk(model, { role: "assistant", content: "" }),
        chatChunk(model, { content: "Hi" }, "stop"),
        chatEvent({
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          created: 1,
          model,
          choices: [],
          usage: { prompt_tokens: 9, completion_tokens: 1 },
        }),
        "data: [DONE]\n\n",
      ]);
    case "msg-null":
      return sse([
        "event: message_start\ndata: null\n\n",
        messageStart(model, { input_tokens: 9, output_tokens: 1 }),
        ...textBlock(["Hi"]),
        "event: message_delta\ndata: null\n\n",
        msgEvent("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }),
        msgEvent("message_stop", {}),
      ]);
    // The provider refuses the request, in its own format.
    case "msg-refuses":
      return Response.json(
        { type: "error", error: { type: "invalid_request_error", message: "messages: roles must alternate" } },
        { status: 400 },
      );
    case "chat-limited":
      return Response.json(
        { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
        {
          status: 429,
          headers: { "retry-after": "7" },
        },
      );
    // A text whose multi-byte characters are split across the provider's chunks.
    case "msg-split": {
      const bytes = encoder.encode(
        [messageStart(model, { input_tokens: 3, output_tokens: 1 }), ...textBlock(["Smørrebrød 🥪 "]), msgEvent("message_stop", {})].join(
          "",
        ),
      );
      const at = bytes.indexOf(0xf0) + 2; // inside the four bytes of the emoji
      return new Response(
        new ReadableStream({
          start(c) {
            for (const piece of [
              bytes.subarray(0, bytes.indexOf(0xc3) + 1),
              bytes.subarray(bytes.indexOf(0xc3) + 1, at),
              bytes.subarray(at),
            ])
              c.enqueue(piece);
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    }
    // A whole chat answer whose tool_calls is not a list.
    case "chat-odd":
      return Response.json({
        id: "chatcmpl-2",
        object: "chat.completion",
        model,
        choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: 5 }, finish_reason: "tool_calls" }],
        usage: { prompt_tokens: 11, completion_tokens: 3 },
      });
    // A chat stream cut off after its text: no finish reason, no usage, no [DONE].
    case "chat-cut":
      return sse([chatChunk(model, { role: "assistant", content: "" }), chatChunk(model, { content: "The sea" })]);
    default:
      return Response.json({ error: { message: `unknown model ${model}` } }, { status: 404 });
  }
}

let provider: ReturnType<typeof Bun.serve>;
let gw: InProcessGateway;

beforeAll(async () => {
  provider = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method === "GET") return Response.json({ data: [] });
      const body = (await req.json()) as { model: string };
      return answer(body.model, req);
    },
  });
  gw = await startInProcessGateway({ logLevel: "error" });
  const base = `http://127.0.0.1:${provider.port}`;
  const key = { key: gw.init.keyValue };
  const custom = { provider: "custom", apiKey: "k-1234567890", country: "US", scope: "organization" };
  const msg = {
    ...custom,
    name: "odd-msg",
    format: "messages",
    baseUrl: base,
    models: ["msg-no-stop", "msg-error", "msg-cached", "msg-odd", "msg-tools", "msg-stall", "msg-null", "msg-refuses", "msg-split"],
  };
  expect((await gw.op(key, "provider.create", msg)).status).toBe(200);
  const chat = {
    ...custom,
    name: "odd-chat",
    baseUrl: `${base}/v1`,
    models: ["chat-no-usage", "chat-cut", "chat-null", "chat-limited", "chat-odd"],
  };
  expect((await gw.op(key, "provider.create", chat)).status).toBe(200);
});

afterAll(async () => {
  await gw.stop();
  provider.stop(true);
});

const PROMPT = "Tell me about the sea. ".repeat(40);

function post(path: string, body: object): Promise<Response> {
  return gw.handle(
    new Request(`${gw.origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${gw.init.keyValue}` },
      body: JSON.stringify(body),
    }),
  );
}

const chatStream = (model: string, extra: object = {}) =>
  post("/v1/chat/completions", { model, stream: true, messages: [{ role: "user", content: PROMPT }], ...extra });

/** The data of each event of a finished stream, parsed (`[DONE]` as the string). */
async function events(res: Response): Promise<unknown[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .map((block) =>
      block
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6),
    )
    .filter((d): d is string => d !== undefined)
    .map((d) => (d === "[DONE]" ? d : JSON.parse(d)));
}

/** The usage rows of `model` so far, once the write-behind buffer has written them. */
async function rows(model: string): Promise<UsageEvent[]> {
  await gw.rt.usage.flush();
  return (await gw.rt.store.listUsageEvents(gw.init.organization.id)).filter((e) => e.model === model);
}

describe("spend on streams without their usage", () => {
  test("a chat stream whose provider reports no usage is charged the estimate, as a cut one is", async () => {
    const res = await chatStream("odd-chat/chat-no-usage");
    expect(res.status).toBe(200);
    await res.text();
    const [row] = await rows("chat-no-usage");
    // Some 200 prompt tokens, estimated; at least one token for each of the four pieces.
    expect(row?.promptTokens).toBeGreaterThan(100);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(4);
  });

  test("a translated messages stream that ends without message_stop: the provider's prompt count is charged, the caller told", async () => {
    const res = await chatStream("odd-msg/msg-no-stop", { stream_options: { include_usage: true } });
    const seen = await events(res);
    const usage = seen.find((e) => (e as { usage?: unknown }).usage) as { usage: { prompt_tokens: number } } | undefined;
    expect(usage?.usage.prompt_tokens).toBe(50);
    // The caller's stream ends with an error in its own envelope, not silently.
    expect(seen.at(-1)).toMatchObject({ error: { code: "stream_interrupted" } });
    expect(seen).not.toContain("[DONE]");
    const [row] = await rows("msg-no-stop");
    expect(row?.promptTokens).toBe(50);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(4);
  });

  test("a translated messages stream broken off by an error event is charged the prompt it reported", async () => {
    const res = await chatStream("odd-msg/msg-error");
    const seen = await events(res);
    expect(seen.at(-1)).toMatchObject({ error: { message: "Overloaded", type: "overloaded_error" } });
    // The caller did not ask for usage: the usage chunk is not shown.
    expect(seen.some((e) => (e as { usage?: unknown }).usage)).toBe(false);
    const [row] = await rows("msg-error");
    expect(row?.promptTokens).toBe(50);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(2);
  });
});

test("a client that leaves a translated stream mid-way is charged the prompt the provider reported, not an estimate", async () => {
  const res = await chatStream("odd-msg/msg-stall");
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let seen = "";
  while (!seen.includes("The ")) seen += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  const [row] = await rows("msg-stall");
  expect(row).toMatchObject({ status: 499, errorCode: "stream_interrupted", promptTokens: 1234 });
  expect(row?.completionTokens).toBeGreaterThanOrEqual(1);
});

describe("usage details across the translation", () => {
  test("cache reads of a messages provider are chat's cached_tokens, in a stream", async () => {
    const res = await chatStream("odd-msg/msg-cached", { stream_options: { include_usage: true } });
    const seen = await events(res);
    const chunk = seen.find((e) => (e as { usage?: unknown }).usage) as { usage: Record<string, unknown> };
    expect(chunk.usage).toMatchObject({ prompt_tokens: 50, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 40 } });
    const [row] = await rows("msg-cached");
    expect([row?.promptTokens, row?.completionTokens]).toEqual([50, 7]);
  });
});

/** The official client, over the gateway in process. */
const openai = () =>
  new OpenAI({
    baseURL: `${gw.origin}/v1`,
    apiKey: gw.init.keyValue,
    maxRetries: 0,
    fetch: (url, init) => gw.handle(new Request(url as string, init as RequestInit)),
  });

describe("through the official openai client", () => {
  test("parallel tool calls streamed from a messages provider: arguments joined, a call without parameters has {}", async () => {
    const stream = openai().chat.completions.stream({
      model: "odd-msg/msg-tools",
      messages: [{ role: "user", content: "Weather in Oslo, and the time?" }],
      tools: [
        { type: "function", function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } } },
        { type: "function", function: { name: "now", parameters: { type: "object", properties: {} } } },
      ],
    });
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBe("Checking.");
    expect(
      choice.message.tool_calls?.map((c) => [
        c.id,
        c.type === "function" ? c.function.name : "",
        c.type === "function" ? JSON.parse(c.function.arguments) : null,
      ]),
    ).toEqual([
      ["toolu_1", "weather", { city: "Oslo" }],
      ["toolu_2", "now", {}],
    ]);
  });

  test("a messages stream that ended early is an error the client raises, not a complete-looking answer", async () => {
    const stream = openai().chat.completions.stream({ model: "odd-msg/msg-no-stop", messages: [{ role: "user", content: "hi" }] });
    await expect(stream.finalChatCompletion()).rejects.toThrow("ended before its last event");
  });
});

describe("answers in shapes the translation does not know", () => {
  test("a whole chat answer the Responses translation cannot read: the provider's 502, accounted as such with its counts", async () => {
    const res = await post("/v1/responses", { model: "odd-chat/chat-odd", input: "hi" });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("tool_calls is not a list");
    const [row] = await rows("chat-odd");
    expect(row).toMatchObject({ status: 502, errorCode: "provider_error", promptTokens: 11, completionTokens: 3 });
  });

  test("a stream event whose data is JSON null, native or translated, in either caller's format: skipped, the call answered and accounted", async () => {
    const chat = await chatStream("odd-chat/chat-null");
    expect(await chat.text()).toContain('"content":"Hi"');
    const messages = await gw.handle(
      new Request(`${gw.origin}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": gw.init.keyValue, "anthropic-version": "2023-06-01" },
        body: JSON.stringify({ model: "odd-msg/msg-null", max_tokens: 5, stream: true, messages: [{ role: "user", content: "hi" }] }),
      }),
    );
    expect(await messages.text()).toContain("message_stop");
    const translated = await chatStream("odd-msg/msg-null");
    expect(await translated.text()).toContain("[DONE]");
    expect((await rows("chat-null")).map((r) => [r.status, r.promptTokens])).toEqual([[200, 9]]);
    expect((await rows("msg-null")).map((r) => [r.status, r.promptTokens, r.completionTokens])).toEqual([
      [200, 9, 2],
      [200, 9, 2],
    ]);
  });

  test("a whole messages answer whose content is not a list: the provider's 502 in the chat envelope, accounted as such", async () => {
    const res = await post("/v1/chat/completions", { model: "odd-msg/msg-odd", messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; type: string; message: string } };
    expect(body.error).toMatchObject({ code: "provider_error", type: "server_error" });
    expect(body.error.message).toContain("content is not a list");
    const [row] = await rows("msg-odd");
    expect(row).toMatchObject({ status: 502, errorCode: "provider_error", promptTokens: 30, completionTokens: 5 });
  });
});

test("a request the messages format cannot carry is a 400 in the chat envelope, before the provider is called", async () => {
  const res = await post("/v1/chat/completions", {
    model: "odd-msg/msg-tools",
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, tool_calls: [null] },
    ],
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { param: string; type: string } }).error).toMatchObject({
    param: "messages[1].tool_calls[0]",
    type: "invalid_request_error",
  });
});

describe("the provider's refusals in the caller's envelope", () => {
  test("a messages provider's 400 is the chat caller's 400 with its message; a chat provider's 429 the Responses caller's, with its wait", async () => {
    const refused = await post("/v1/chat/completions", { model: "odd-msg/msg-refuses", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "provider_error" });
    expect(body.error.message).toContain("roles must alternate");
    const limited = await post("/v1/responses", { model: "odd-chat/chat-limited", input: "hi" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
  });
});

test("multi-byte characters split across the provider's chunks arrive whole through the translation", async () => {
  const seen = (await events(await chatStream("odd-msg/msg-split"))) as { choices?: { delta?: { content?: string } }[] }[];
  expect(seen.map((c) => c.choices?.[0]?.delta?.content ?? "").join("")).toBe("Smørrebrød 🥪 ");
});

describe("Responses over a chat provider", () => {
  test("a chat stream cut off before its finish ends the response with response.failed, not silently", async () => {
    const res = await post("/v1/responses", { model: "odd-chat/chat-cut", input: PROMPT, stream: true });
    expect(res.status).toBe(200);
    const seen = (await events(res)) as { type: string; response?: { status: string; error?: { message: string } } }[];
    expect(seen[0]?.type).toBe("response.created");
    const last = seen.at(-1);
    expect(last?.type).toBe("response.failed");
    expect(last?.response?.status).toBe("failed");
    expect(last?.response?.error?.message).toContain("ended before");
    const [row] = await rows("chat-cut");
    expect(row?.promptTokens).toBeGreaterThan(100);
  });
});
