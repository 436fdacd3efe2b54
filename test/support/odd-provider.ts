/**
 * A provider that answers oddly on purpose, steered by model name (the mock provider
 * answers well): messages-format answers under /v1/messages, chat ones under
 * /v1/chat/completions, each model a misbehaviour (a stream without its last event or its
 * usage, an error event mid-way, an event whose data is null, parts in shapes no provider
 * writes, split characters, a stream that stalls, an error event quoting the key it was
 * sent, a thinking phase of pings only). `startOddGateway` starts it with a
 * gateway in process that knows it as two providers, `odd-msg` and `odd-chat`, and the
 * helpers the translation tests call it with.
 */
import { expect } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { UsageEvent } from "../../src/domain/types.ts";
import { type InProcessGateway, startInProcessGateway } from "./in-process-gateway.ts";

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

/** A chat stream that sends its first piece, then nothing until the gateway hangs up. */
function chatStalled(model: string, req: Request): Response {
  return new Response(
    new ReadableStream({
      start(c) {
        c.enqueue(encoder.encode(chatChunk(model, { role: "assistant", content: "" }) + chatChunk(model, { content: "The " })));
        req.signal.addEventListener("abort", () => c.close());
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

/** A messages stream that thinks in silence but for a ping every 100 ms, 15 of them, then answers whole. */
function thinking(model: string): Response {
  let pings = 0;
  return new Response(
    new ReadableStream({
      async start(c) {
        c.enqueue(encoder.encode(messageStart(model, { input_tokens: 12, output_tokens: 1 })));
        while (pings++ < 15) {
          await Bun.sleep(100);
          c.enqueue(encoder.encode(msgEvent("ping", {})));
        }
        for (const e of [
          ...textBlock(["Done."]),
          msgEvent("content_block_stop", { index: 0 }),
          msgEvent("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } }),
          msgEvent("message_stop", {}),
        ])
          c.enqueue(encoder.encode(e));
        c.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

/** The key the gateway sent, as a provider that quotes it in its errors would read it. */
const sentKey = (req: Request) => req.headers.get("x-api-key") ?? req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";

/** The provider's answer for each model: messages-format ones under /v1/messages, chat ones under /v1/chat/completions. */
function answer(model: string, req: Request): Response {
  switch (model) {
    case "msg-stall":
      return stalled(model, req);
    case "chat-stall":
      return chatStalled(model, req);
    case "msg-thinking":
      return thinking(model);
    // A messages stream broken off by an error event that quotes the key it was sent.
    case "msg-key-error":
      return sse([
        messageStart(model, { input_tokens: 20, output_tokens: 1 }),
        ...textBlock(["The "]),
        msgEvent("error", { error: { type: "authentication_error", message: `key ${sentKey(req)} was revoked mid-way` } }),
      ]);
    // The same in the chat format: the error chunk, split across two network chunks inside the key.
    case "chat-key-error": {
      const error = chatEvent({ error: { message: `key ${sentKey(req)} was revoked mid-way`, type: "invalid_request_error" } });
      const at = error.indexOf(sentKey(req)) + 4;
      return sse([
        chatChunk(model, { role: "assistant", content: "" }),
        chatChunk(model, { content: "The " }),
        error.slice(0, at),
        error.slice(at),
      ]);
    }
    // A chat stream that finished (its finish reason and usage came) but lost its [DONE], as behind some proxies.
    case "chat-no-done":
      return sse([
        chatChunk(model, { role: "assistant", content: "" }),
        chatChunk(model, { content: "Whole." }, "stop"),
        chatEvent({
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          created: 1,
          model,
          choices: [],
          usage: { prompt_tokens: 9, completion_tokens: 2 },
        }),
      ]);
    // A messages stream that gave its stop reason and lost only message_stop.
    case "msg-no-close":
      return sse([
        messageStart(model, { input_tokens: 9, output_tokens: 1 }),
        ...textBlock(["Whole."]),
        msgEvent("content_block_stop", { index: 0 }),
        msgEvent("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }),
      ]);
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
    // Some 80 KB of text in 1 KB pieces: past a gateway that holds 64 KiB of an answer.
    case "chat-long":
      return sse([
        chatChunk(model, { role: "assistant", content: "" }),
        ...Array.from({ length: 80 }, () => chatChunk(model, { content: "wave ".repeat(200) })),
        chatChunk(model, {}, "stop"),
        chatEvent({
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          created: 1,
          model,
          choices: [],
          usage: { prompt_tokens: 9, completion_tokens: 16000 },
        }),
        "data: [DONE]\n\n",
      ]);
    // A chat stream cut off after its text: no finish reason, no usage, no [DONE].
    case "chat-cut":
      return sse([chatChunk(model, { role: "assistant", content: "" }), chatChunk(model, { content: "The sea" })]);
    default:
      return Response.json({ error: { message: `unknown model ${model}` } }, { status: 404 });
  }
}

export interface OddGateway {
  gw: InProcessGateway;
  post(path: string, body: object): Promise<Response>;
  /** A streamed chat call with a prompt of some 200 tokens. */
  chatStream(model: string, extra?: object): Promise<Response>;
  /** The data of each event of a finished stream, parsed (`[DONE]` as the string). */
  events(res: Response): Promise<unknown[]>;
  /** The usage rows of `model` so far, once the write-behind buffer has written them. */
  rows(model: string): Promise<UsageEvent[]>;
  /** The official client, over the gateway in process. */
  openai(): OpenAI;
  /** The messages format's official client, over the gateway in process. */
  anthropic(): Anthropic;
  stop(): Promise<void>;
}

export const PROMPT = "Tell me about the sea. ".repeat(40);

/** `env`: the gateway's own settings beside the test's (GW_MAX_ANSWER_BYTES, say). */
export async function startOddGateway(env: Record<string, string> = {}): Promise<OddGateway> {
  const provider = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method === "GET") return Response.json({ data: [] });
      const body = (await req.json()) as { model: string };
      return answer(body.model, req);
    },
  });
  const gw = await startInProcessGateway({ logLevel: "error", env });
  const base = `http://127.0.0.1:${provider.port}`;
  const key = { key: gw.init.keyValue };
  const custom = { provider: "custom", apiKey: "k-1234567890", country: "US", scope: "organization" };
  const msg = {
    ...custom,
    name: "odd-msg",
    format: "messages",
    baseUrl: base,
    models: [
      "msg-no-stop",
      "msg-error",
      "msg-cached",
      "msg-odd",
      "msg-tools",
      "msg-stall",
      "msg-null",
      "msg-refuses",
      "msg-split",
      "msg-thinking",
      "msg-key-error",
      "msg-no-close",
    ],
  };
  expect((await gw.op(key, "provider.create", msg)).status).toBe(200);
  const chat = {
    ...custom,
    name: "odd-chat",
    baseUrl: `${base}/v1`,
    models: [
      "chat-no-usage",
      "chat-cut",
      "chat-null",
      "chat-limited",
      "chat-odd",
      "chat-long",
      "chat-stall",
      "chat-key-error",
      "chat-no-done",
    ],
  };
  expect((await gw.op(key, "provider.create", chat)).status).toBe(200);

  const post = (path: string, body: object) =>
    gw.handle(
      new Request(`${gw.origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${gw.init.keyValue}` },
        body: JSON.stringify(body),
      }),
    );
  return {
    gw,
    post,
    chatStream: (model, extra = {}) =>
      post("/v1/chat/completions", { model, stream: true, messages: [{ role: "user", content: PROMPT }], ...extra }),
    async events(res) {
      return (await res.text())
        .split("\n\n")
        .map((block) =>
          block
            .split("\n")
            .find((l) => l.startsWith("data: "))
            ?.slice(6),
        )
        .filter((d): d is string => d !== undefined)
        .map((d) => (d === "[DONE]" ? d : JSON.parse(d)));
    },
    async rows(model) {
      await gw.rt.usage.flush();
      return (await gw.rt.store.listUsageEvents(gw.init.organization.id)).filter((e) => e.model === model);
    },
    openai: () =>
      new OpenAI({
        baseURL: `${gw.origin}/v1`,
        apiKey: gw.init.keyValue,
        maxRetries: 0,
        fetch: (url, init) => gw.handle(new Request(url as string, init as RequestInit)),
      }),
    anthropic: () =>
      new Anthropic({
        baseURL: gw.origin,
        apiKey: gw.init.keyValue,
        maxRetries: 0,
        fetch: (url, init) => gw.handle(new Request(url as string, init as RequestInit)),
      }),
    async stop() {
      await gw.stop();
      provider.stop(true);
    },
  };
}
