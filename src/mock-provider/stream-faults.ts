/**
 * Fault steers for streams (docs/mock-provider.md, "Fault steers"): streams that lose
 * their last events or their usage, break off with an error event, carry null events,
 * `"error": null` members or split characters, stall, or think in pings, each in the chat and/or messages format.
 * Each is a pure plan of the bytes to send (fault-plan.ts); the counts are fixed so a test
 * can tell what the gateway made of them.
 */
import type { FaultContext, FaultPlan, FaultTable, Piece } from "./fault-types.ts";

const encoder = new TextEncoder();

/** One event's text in each format: messages events name their type, chat events are a data line alone. */
const sse = {
  headers: { "content-type": "text/event-stream" },
  msg: (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`,
  chat: (data: object) => `data: ${JSON.stringify(data)}\n\n`,
};
const DONE = "data: [DONE]\n\n";

const plan = (pieces: Piece[], end: "close" | "hold" = "close"): FaultPlan => ({ status: 200, headers: sse.headers, pieces, end });

const messageStart = (model: string, usage: object) =>
  sse.msg("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, usage } });
const textBlock = (words: string[]) => [
  sse.msg("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  ...words.map((w) => sse.msg("content_block_delta", { index: 0, delta: { type: "text_delta", text: w } })),
];
const blockStop = (index: number) => sse.msg("content_block_stop", { index });
const messageDelta = (stop: string, usage: object) => sse.msg("message_delta", { delta: { stop_reason: stop }, usage });
const messageStop = () => sse.msg("message_stop", {});

const chatChunk = (model: string, delta: object, finish: string | null = null) =>
  sse.chat({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] });
const chatUsage = (model: string, prompt: number, completion: number) =>
  sse.chat({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model,
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion },
  });
const chatRole = (model: string) => chatChunk(model, { role: "assistant", content: "" });

/**
 * A pause between the writes of a split, so they leave as separate packets: writes made
 * back to back reach the reader as one chunk, and the split would never be seen.
 */
const SPLIT = { waitMs: 20 };

const revoked = (key: string) => `key ${key} was revoked mid-way`;

/** Messages-format stream faults, by name. */
const MESSAGES: Record<string, (c: FaultContext) => FaultPlan> = {
  // Its start (a prompt of 1,234 tokens) and one piece of text, then nothing until the client hangs up.
  stall: ({ model }) => plan([messageStart(model, { input_tokens: 1234, output_tokens: 1 }), ...textBlock(["The "])], "hold"),
  // Silence but for a ping every 100 ms, 15 of them, then the whole answer.
  thinking: ({ model }) =>
    plan([
      messageStart(model, { input_tokens: 12, output_tokens: 1 }),
      ...Array.from({ length: 15 }, () => [{ waitMs: 100 }, sse.msg("ping", {})]).flat(),
      ...textBlock(["Done."]),
      blockStop(0),
      messageDelta("end_turn", { output_tokens: 3 }),
      messageStop(),
    ]),
  // Broken off by an error event that quotes the key it was sent.
  "key-error": ({ model, key }) =>
    plan([
      messageStart(model, { input_tokens: 20, output_tokens: 1 }),
      ...textBlock(["The "]),
      sse.msg("error", { error: { type: "authentication_error", message: revoked(key) } }),
    ]),
  // Its stop reason came; only message_stop is lost.
  "no-close": ({ model }) =>
    plan([
      messageStart(model, { input_tokens: 9, output_tokens: 1 }),
      ...textBlock(["Whole."]),
      blockStop(0),
      messageDelta("end_turn", { output_tokens: 2 }),
    ]),
  // Stops after its text: no message_delta (no stop reason, no output count), no message_stop.
  "no-stop": ({ model }) =>
    plan([messageStart(model, { input_tokens: 50, output_tokens: 1 }), ...textBlock(["The ", "sea ", "is ", "wide."])]),
  // Broken off by an error event (overloaded) after some text.
  "error-event": ({ model }) =>
    plan([
      messageStart(model, { input_tokens: 50, output_tokens: 1 }),
      ...textBlock(["The ", "sea "]),
      sse.msg("error", { error: { type: "overloaded_error", message: "Overloaded" } }),
    ]),
  // Whole, with cache reads, and the input counted again on message_delta as the vendor now writes it.
  "usage-repeated": ({ model }) =>
    plan([
      messageStart(model, { input_tokens: 10, cache_read_input_tokens: 40, output_tokens: 1 }),
      ...textBlock(["Hi."]),
      blockStop(0),
      messageDelta("end_turn", { input_tokens: 10, cache_read_input_tokens: 40, output_tokens: 7 }),
      messageStop(),
    ]),
  // Text, then two tool calls in parallel: one whose arguments come in pieces, one without parameters.
  "split-tools": ({ model }) =>
    plan([
      messageStart(model, { input_tokens: 20, output_tokens: 1 }),
      ...textBlock(["Checking."]),
      blockStop(0),
      sse.msg("content_block_start", { index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "weather", input: {} } }),
      ...['{"ci', 'ty": "Os', 'lo"}'].map((p) =>
        sse.msg("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: p } }),
      ),
      blockStop(1),
      sse.msg("content_block_start", { index: 2, content_block: { type: "tool_use", id: "toolu_2", name: "now", input: {} } }),
      sse.msg("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: "" } }),
      blockStop(2),
      messageDelta("tool_use", { output_tokens: 30 }),
      messageStop(),
    ]),
  // Events whose data is JSON null, before the real ones.
  "null-event": ({ model }) =>
    plan([
      "event: message_start\ndata: null\n\n",
      messageStart(model, { input_tokens: 9, output_tokens: 1 }),
      ...textBlock(["Hi"]),
      "event: message_delta\ndata: null\n\n",
      messageDelta("end_turn", { output_tokens: 2 }),
      messageStop(),
    ]),
  // Multi-byte characters split across writes: inside the "ø" and inside the emoji's four bytes.
  "split-chars": ({ model }) => {
    const bytes = encoder.encode(
      [messageStart(model, { input_tokens: 3, output_tokens: 1 }), ...textBlock(["Smørrebrød 🥪 "]), messageStop()].join(""),
    );
    const inChar = bytes.indexOf(0xc3) + 1;
    const inEmoji = bytes.indexOf(0xf0) + 2;
    return plan([bytes.subarray(0, inChar), SPLIT, bytes.subarray(inChar, inEmoji), SPLIT, bytes.subarray(inEmoji)]);
  },
};

/** Chat-completions stream faults, by name. */
const CHAT: Record<string, (c: FaultContext) => FaultPlan> = {
  // Its first piece, then nothing until the client hangs up.
  stall: ({ model }) => plan([chatRole(model) + chatChunk(model, { content: "The " })], "hold"),
  // An error chunk quoting the key, split across two writes inside the key.
  "key-error": ({ model, key }) => {
    const error = sse.chat({ error: { message: revoked(key), type: "invalid_request_error" } });
    const at = error.indexOf(key) + 4;
    return plan([chatRole(model), chatChunk(model, { content: "The " }), error.slice(0, at), SPLIT, error.slice(at)]);
  },
  // Finished (finish reason and usage came) but lost its [DONE], as behind some proxies.
  "no-done": ({ model }) => plan([chatRole(model), chatChunk(model, { content: "Whole." }, "stop"), chatUsage(model, 9, 2)]),
  // Never reports usage, as servers that ignore stream_options.include_usage.
  "no-usage": ({ model }) =>
    plan([
      chatRole(model),
      ...["The ", "sea ", "is ", "wide."].map((w) => chatChunk(model, { content: w })),
      chatChunk(model, {}, "stop"),
      DONE,
    ]),
  // A first event whose data is JSON null, then a sound answer.
  "null-event": ({ model }) =>
    plan(["data: null\n\n", chatRole(model), chatChunk(model, { content: "Hi" }, "stop"), chatUsage(model, 9, 1), DONE]),
  // Some 80 KB of text in 1 KB pieces: past a gateway that holds 64 KiB of an answer.
  "long-stream": ({ model }) =>
    plan([
      chatRole(model),
      ...Array.from({ length: 80 }, () => chatChunk(model, { content: "wave ".repeat(200) })),
      chatChunk(model, {}, "stop"),
      chatUsage(model, 9, 16000),
      DONE,
    ]),
  // Cut off after its text: no finish reason, no usage, no [DONE].
  cut: ({ model }) => plan([chatRole(model), chatChunk(model, { content: "The sea" })]),
  // Broken off by an error chunk (the server failed) after some text, without usage.
  "error-event": ({ model }) =>
    plan([
      chatRole(model),
      chatChunk(model, { content: "The " }),
      chatChunk(model, { content: "sea " }),
      sse.chat({ error: { message: "The server had an error while processing your request.", type: "server_error", code: null } }),
    ]),
  // `"error": null` in every chunk (as some servers write it), then cut after its text: no finish, no usage, no [DONE].
  "null-error": ({ model }) =>
    plan([
      chatRole(model).replace('"choices"', '"error":null,"choices"'),
      ...["The ", "sea"].map((w) => chatChunk(model, { content: w }).replace('"choices"', '"error": null,"choices"')),
    ]),
};

/** Every stream fault, by family and name. */
export const STREAM_FAULTS: FaultTable = { messages: MESSAGES, chat: CHAT };
