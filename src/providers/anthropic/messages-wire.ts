/** The messages wire format as the gateway reads it: `model` and `usage` on the body, or on message_start / message_delta events. */
import { errorBody } from "../../lib/error-bodies.ts";
import { encodeSse } from "../../lib/sse.ts";
import type { WireFormat } from "../wire-format.ts";

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** The closing event, written by the gateway after a stream that gave its stop reason and lost it. */
const MESSAGE_STOP = encodeSse({ event: "message_stop", data: '{"type":"message_stop"}' });

const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * Prompt tokens include cache reads and writes: they are input the caller paid for. Only
 * numbers count: a provider's `"10"` would otherwise be joined as text to the others.
 */
export function promptTokensOf(u: Usage): number {
  return count(u.input_tokens) + count(u.cache_creation_input_tokens) + count(u.cache_read_input_tokens);
}

export const messagesWire: WireFormat = {
  bodyMembers: ["model", "usage"],
  fromBody(body) {
    const u = (body.usage ?? {}) as Usage;
    return {
      model: typeof body.model === "string" ? body.model : null,
      promptTokens: promptTokensOf(u),
      completionTokens: u.output_tokens ?? 0,
      ...(typeof body.stop_reason === "string" ? { finishReason: body.stop_reason } : {}),
    };
  },
  fromEvent(e, acc) {
    if (e.event !== "message_start" && e.event !== "message_delta") return false;
    let data: {
      message?: { model?: unknown; usage?: Usage } | null;
      usage?: Usage | null;
      delta?: { stop_reason?: unknown } | null;
    } | null;
    try {
      data = JSON.parse(e.data);
    } catch {
      return false;
    }
    // `data: null` parses, and must not throw in the tap (the stream would never be accounted).
    if (typeof data !== "object" || data === null) return false;
    if (e.event === "message_delta") {
      // Output tokens on message_delta are cumulative.
      if (typeof data.usage !== "object" || data.usage === null) data.usage = undefined;
      if (data.usage?.output_tokens !== undefined) acc.completionTokens = data.usage.output_tokens;
      // The vendor now repeats the input counts here (cumulative); a server that reports them only here is charged them.
      if (data.usage) acc.promptTokens = Math.max(acc.promptTokens, promptTokensOf(data.usage));
      if (typeof data.delta?.stop_reason === "string") acc.finishReason = data.delta.stop_reason;
      return false;
    }
    const u = typeof data.message?.usage === "object" && data.message.usage !== null ? data.message.usage : {};
    acc.promptTokens = promptTokensOf(u);
    acc.completionTokens = u.output_tokens ?? acc.completionTokens;
    if (acc.model === null && typeof data.message?.model === "string") {
      acc.model = data.message.model;
      return true;
    }
    return false;
  },
  carriesAnswer(e) {
    return e.event === "content_block_delta";
  },
  errorEvent(err) {
    return encodeSse({ event: "error", data: JSON.stringify(errorBody("messages", err)) });
  },
  streamEnd(e) {
    return e.event === "message_stop" ? "done" : e.event === "error" ? "error" : null;
  },
  closingFor(acc) {
    // message_delta, read for the usage, gave the stop reason.
    return acc.finishReason === undefined ? null : MESSAGE_STOP;
  },
};
