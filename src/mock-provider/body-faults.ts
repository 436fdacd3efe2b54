/**
 * Fault steers for answer bodies (docs/mock-provider.md, "Fault steers"): no body where
 * one belongs, an error body that never ends or stalls, a whole answer that stalls, and
 * whole answers longer than a gateway reads, sent with a declared length, in writes of
 * their own, or compressed. Each is a pure plan of the bytes to send (fault-plan.ts).
 */
import type { FaultContext, FaultFamily, FaultPlan, FaultTable } from "./fault-types.ts";

const JSON_TYPE = { "content-type": "application/json" };

/** Some 100 KB of well-formed answer by `model`: past a gateway that reads 64 KiB, in each format's shape. */
const longAnswer: Record<FaultFamily, (model: string) => string> = {
  chat: (model) =>
    JSON.stringify({
      id: "chatcmpl-3",
      object: "chat.completion",
      model,
      choices: [{ index: 0, message: { role: "assistant", content: "wave ".repeat(20_000) }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 20_000 },
    }),
  messages: (model) =>
    JSON.stringify({
      id: "msg_3",
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text: "wave ".repeat(20_000) }],
      stop_reason: "end_turn",
      usage: { input_tokens: 10, output_tokens: 20_000 },
    }),
};

/** The long answers, each sent another way: the same bytes to read, whatever the wire says of them. */
const longAnswers = (family: FaultFamily): Record<string, (c: FaultContext) => FaultPlan> => ({
  // With its Content-Length.
  "long-answer": ({ model }) => ({ status: 200, headers: JSON_TYPE, pieces: [longAnswer[family](model)], end: "close", declared: true }),
  // Chunked, in two writes (the first 50,000 characters, then the rest).
  "long-answer-chunked": ({ model }) => {
    const text = longAnswer[family](model);
    return { status: 200, headers: JSON_TYPE, pieces: [text.slice(0, 50_000), text.slice(50_000)], end: "close" };
  },
  // Small on the wire (its Content-Length is the compressed size), past the bound once inflated.
  "long-answer-gzip": ({ model }) => ({
    status: 200,
    headers: { ...JSON_TYPE, "content-encoding": "gzip" },
    pieces: [Bun.gzipSync(new TextEncoder().encode(longAnswer[family](model)))],
    end: "close",
    declared: true,
  }),
});

/** Chat-completions body faults, by name. */
const CHAT: Record<string, (c: FaultContext) => FaultPlan> = {
  // No body at all: what a 204 is, whatever was asked (a stream included).
  "no-body": () => ({ status: 204, headers: {}, pieces: [], end: "close" }),
  // An error whose body never ends: 16 KB of `x` again and again until the client leaves.
  "error-endless": () => ({ status: 500, headers: JSON_TYPE, pieces: [], end: { repeat: "x".repeat(16 * 1024) } }),
  // An error whose body starts, then neither ends nor fails until the client leaves.
  "error-stalls": () => ({ status: 500, headers: JSON_TYPE, pieces: ['{"error":{"message":"over'], end: "hold" }),
  // A whole answer whose body starts, then neither ends nor fails until the client leaves.
  "body-stalls": ({ model }) => ({
    status: 200,
    headers: JSON_TYPE,
    pieces: [`{"id":"chatcmpl-1","model":${JSON.stringify(model)},`],
    end: "hold",
  }),
  ...longAnswers("chat"),
};

const MESSAGES: Record<string, (c: FaultContext) => FaultPlan> = longAnswers("messages");

/** Every body fault, by family and name. */
export const BODY_FAULTS: FaultTable = { messages: MESSAGES, chat: CHAT };
