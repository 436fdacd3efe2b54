/**
 * The messages wire format as the gateway reads it: `model` and `usage` on the body, or
 * on message_start / message_delta events. The vendor's `input_tokens` leaves out the
 * prompt cache's tokens (`cache_read_input_tokens`, `cache_creation_input_tokens`, the
 * latter split by lifetime in `cache_creation`), so the prompt is their sum, and the
 * cache's parts are kept apart to be priced apart. Bedrock's invoke API answers
 * Anthropic's models with the same usage.
 */
import type { CacheTokens } from "../catalog/catalog.ts";
import { errorBody } from "../../lib/error-bodies.ts";
import { encodeSse } from "../../lib/sse.ts";
import { cacheTokens, tokenCount as count, eventObject, streamError, type WireFormat } from "../wire-format.ts";

export interface MessagesUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  /** The writes by cache lifetime (`ttl` of `cache_control`): `5m` and `1h`. */
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number } | null;
  /** The vendor's own tools run for the answer (`ServerToolUsage`): web searches are charged apart from the tokens. */
  server_tool_use?: { web_search_requests?: number } | null;
}

/**
 * What the vendor charges per search its web search tool ran, beside the tokens: $10 per
 * 1,000 searches (the web search tool's page of the vendor's documentation), in
 * micro-dollars. Counted from `usage.server_tool_use.web_search_requests`
 * (anthropics/anthropic-sdk-typescript, src/resources/messages/messages.ts, `Usage`).
 */
export const WEB_SEARCH_FEE_MICROS = 10_000;

/** Each web search tool's `max_uses` as the request gives it (a whole number above 0), or null where it sets none. */
function webSearchLimits(tools: unknown): (number | null)[] {
  if (!Array.isArray(tools)) return [];
  const limits: (number | null)[] = [];
  for (const tool of tools) {
    const { type, max_uses } = (tool ?? {}) as { type?: unknown; max_uses?: unknown };
    if (typeof type !== "string" || !type.startsWith("web_search_")) continue;
    limits.push(typeof max_uses === "number" && Number.isInteger(max_uses) && max_uses > 0 ? max_uses : null);
  }
  return limits;
}

/**
 * What a request's web search tools may cost before its answer says how many searches ran,
 * reserved against a spend cap: each tool's `max_uses`, or one search when it sets none
 * (as a Responses call's tool fees are reserved; the answer's count is charged up to
 * `serverToolFeeCeiling`).
 */
export function reservedServerToolFees(tools: unknown): number {
  let searches = 0;
  for (const limit of webSearchLimits(tools)) searches += limit === null ? 1 : Math.min(limit, 1_000);
  return searches * WEB_SEARCH_FEE_MICROS;
}

/**
 * The most the request's web search tools let the vendor charge: nothing without one, and
 * their `max_uses` searches when each sets it (the vendor stops there). A usage reporting
 * more (a provider that miscounts, or one at an address of a member's choosing reporting
 * 10^12 searches) is charged this much, not billions. Undefined: a tool sets no `max_uses`,
 * so the request bounds nothing and the answer's count stands.
 */
export function serverToolFeeCeiling(tools: unknown): number | undefined {
  let searches = 0;
  for (const limit of webSearchLimits(tools)) {
    if (limit === null) return undefined;
    searches += limit;
  }
  return searches * WEB_SEARCH_FEE_MICROS;
}

/** The fees of the server tools the usage reports run, or 0. */
export function serverToolFees(u: MessagesUsage): number {
  const tools = typeof u.server_tool_use === "object" && u.server_tool_use !== null ? u.server_tool_use : {};
  return count(tools.web_search_requests) * WEB_SEARCH_FEE_MICROS;
}

/** The closing event, written by the gateway after a stream that gave its stop reason and lost it. */
const MESSAGE_STOP = encodeSse({ event: "message_stop", data: '{"type":"message_stop"}' });

/**
 * Prompt tokens include cache reads and writes: they are input the caller paid for. Only
 * numbers count: a provider's `"10"` would otherwise be joined as text to the others.
 */
export function promptTokensOf(u: MessagesUsage): number {
  return count(u.input_tokens) + cacheWritesOf(u) + count(u.cache_read_input_tokens);
}

/** The writes by lifetime, or none given. */
function lifetimesOf(u: MessagesUsage): NonNullable<MessagesUsage["cache_creation"]> {
  return typeof u.cache_creation === "object" && u.cache_creation !== null ? u.cache_creation : {};
}

/** Every cache write: the total, or the lifetimes' sum where only they are given. */
function cacheWritesOf(u: MessagesUsage): number {
  const byLifetime = lifetimesOf(u);
  return Math.max(
    count(u.cache_creation_input_tokens),
    count(byLifetime.ephemeral_5m_input_tokens) + count(byLifetime.ephemeral_1h_input_tokens),
  );
}

/** The prompt's cache reads and writes (the 1-hour writes apart), or none when the answer used no cache. */
export function cacheOf(u: MessagesUsage): CacheTokens | undefined {
  return cacheTokens(u.cache_read_input_tokens, cacheWritesOf(u), lifetimesOf(u).ephemeral_1h_input_tokens);
}

export const messagesWire: WireFormat = {
  bodyMembers: ["model", "usage"],
  fromBody(body) {
    const u = (typeof body.usage === "object" && body.usage !== null ? body.usage : {}) as MessagesUsage;
    const cache = cacheOf(u);
    const fees = serverToolFees(u);
    return {
      model: typeof body.model === "string" ? body.model : null,
      promptTokens: promptTokensOf(u),
      completionTokens: u.output_tokens ?? 0,
      ...(cache ? { cache } : {}),
      ...(fees > 0 ? { feeMicros: fees } : {}),
      ...(typeof body.stop_reason === "string" ? { finishReason: body.stop_reason } : {}),
    };
  },
  fromEvent(e, acc) {
    if (e.event !== "message_start" && e.event !== "message_delta") return false;
    let data: {
      message?: { model?: unknown; usage?: MessagesUsage } | null;
      usage?: MessagesUsage | null;
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
      if (data.usage && promptTokensOf(data.usage) >= acc.promptTokens) {
        acc.promptTokens = promptTokensOf(data.usage);
        acc.cache = cacheOf(data.usage) ?? acc.cache;
      }
      // The searches run so far, counted again on each message_delta (cumulative): the last count is the answer's.
      if (data.usage && serverToolFees(data.usage) > (acc.feeMicros ?? 0)) acc.feeMicros = serverToolFees(data.usage);
      if (typeof data.delta?.stop_reason === "string") acc.finishReason = data.delta.stop_reason;
      return false;
    }
    const u = typeof data.message?.usage === "object" && data.message.usage !== null ? data.message.usage : {};
    acc.promptTokens = promptTokensOf(u);
    acc.cache = cacheOf(u);
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
  errorOf(e) {
    const err = eventObject(e).error ?? {};
    return streamError(err.type, undefined, err.message);
  },
  closingFor(acc) {
    // message_delta, read for the usage, gave the stop reason.
    return acc.finishReason === undefined ? null : MESSAGE_STOP;
  },
};
