/**
 * Fault steers for whole answers (docs/mock-provider.md, "Fault steers"): answers in
 * shapes no provider writes, token counts that are not counts, a refusal and a rate limit
 * in the provider's own envelope.
 * Each is a pure plan of the bytes to send (fault-plan.ts), whatever `stream` asked.
 */
import type { FaultContext, FaultPlan, FaultTable } from "./fault-types.ts";

const json = (status: number, body: object, headers: Record<string, string> = {}): FaultPlan => ({
  status,
  headers: { "content-type": "application/json;charset=utf-8", ...headers },
  pieces: [JSON.stringify(body)],
  end: "close",
});

/** Messages-format answer faults, by name. */
const MESSAGES: Record<string, (c: FaultContext) => FaultPlan> = {
  // Content that is text where a list of blocks belongs.
  "odd-shape": ({ model }) =>
    json(200, { id: "msg_2", type: "message", model, content: "plain text", usage: { input_tokens: 30, output_tokens: 5 } }),
  // The provider refuses the request, in its own envelope.
  refuses: () => json(400, { type: "error", error: { type: "invalid_request_error", message: "messages: roles must alternate" } }),
};

/** Chat-completions answer faults, by name. */
const CHAT: Record<string, (c: FaultContext) => FaultPlan> = {
  // A tool_calls that is not a list.
  "odd-shape": ({ model }) =>
    json(200, {
      id: "chatcmpl-2",
      object: "chat.completion",
      model,
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: 5 }, finish_reason: "tool_calls" }],
      usage: { prompt_tokens: 11, completion_tokens: 3 },
    }),
  // Token counts that are not counts: one no store column can hold, one that would pay the caller back.
  "bad-usage": ({ model }) =>
    json(200, {
      id: "chatcmpl-2",
      object: "chat.completion",
      model,
      choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
      usage: { prompt_tokens: { n: 1 }, completion_tokens: -1_000_000 },
    }),
  // A rate limit with the wait it asks for.
  limited: () =>
    json(429, { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { "retry-after": "7" }),
};

/** Every answer fault, by family and name. */
export const ANSWER_FAULTS: FaultTable = { messages: MESSAGES, chat: CHAT };
