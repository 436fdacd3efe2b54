/**
 * The chat-completions wire format as the gateway reads it: `model` and `usage` on the
 * body or on chunks. `prompt_tokens` counts the prompt cache's tokens too; their part is
 * `prompt_tokens_details.cached_tokens` (reads: OpenAI, Azure, xAI, Google's compatible
 * endpoint), `prompt_tokens_details.cache_write_tokens` (writes: OpenRouter, and the
 * gateway's own translation of a messages provider's answer), or DeepSeek's
 * `prompt_cache_hit_tokens`.
 */
import { errorBody } from "../../lib/error-bodies.ts";
import { encodeSse, type SseEvent } from "../../lib/sse.ts";
import { type CallUsage, cacheTokens, eventObject, serviceTierOf, streamError, type WireFormat } from "../wire-format.ts";

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  prompt_cache_hit_tokens?: number;
}

/**
 * The prompt's cache reads and writes. A count of the same writes read again keeps the
 * 1-hour part an earlier report gave: a translated messages stream keeps the provider's
 * split in `acc` as it passes, and its chat usage chunk has no member for it.
 */
function cacheOf(u: Usage, acc?: CallUsage): CallUsage["cache"] {
  const details = typeof u.prompt_tokens_details === "object" && u.prompt_tokens_details !== null ? u.prompt_tokens_details : {};
  const cache = cacheTokens(details.cached_tokens ?? u.prompt_cache_hit_tokens, details.cache_write_tokens);
  if (cache && acc?.cache && acc.cache.write === cache.write) cache.writeLong = acc.cache.writeLong;
  return cache;
}

/** The closing event, written by the gateway after a stream that finished without it. */
const DONE = encodeSse({ data: "[DONE]" });

/** A choice's finish reason on a chunk read at the stream's end (never on the hot path). */
function finishes(e: SseEvent | null): boolean {
  if (!e || !e.data.includes('"finish_reason"')) return false;
  try {
    const chunk = JSON.parse(e.data) as { choices?: unknown };
    return Array.isArray(chunk?.choices) && chunk.choices.some((c) => typeof c?.finish_reason === "string" && c.finish_reason !== "");
  } catch {
    return false;
  }
}

/** A non-empty text or tool-argument delta. */
const ANSWER_TEXT = /"(?:content|arguments)":"(?!")/;

/** A `usage` member that is not null (in JSON, `"usage"` followed by a colon can only be a member's name). */
/** An `error` member with a value (not null), or vLLM's `"object":"error"`. */
const ERROR_CHUNK = /"error"\s*:(?!\s*null\b)|"object"\s*:\s*"error"/;
const USAGE_VALUE = /"usage"\s*:(?!\s*null\b)/;

/**
 * Whether a chunk may carry usage. OpenAI sends `"usage":null` on every chunk of a
 * stream that asked for usage (the gateway always asks), and only the last carries
 * it: those chunks need not be parsed.
 */
export function mayCarryUsage(data: string): boolean {
  return data.includes('"usage"') && USAGE_VALUE.test(data);
}

export const openAiWire: WireFormat = {
  bodyMembers: ["model", "usage", "service_tier"],
  fromBody(body) {
    const u = (typeof body.usage === "object" && body.usage !== null ? body.usage : {}) as Usage;
    // Embeddings are read for their members only, so `choices` is there on chat answers alone.
    const finish = (body.choices as { finish_reason?: unknown }[] | undefined)?.[0]?.finish_reason;
    const cache = cacheOf(u);
    const serviceTier = serviceTierOf(body.service_tier);
    return {
      model: typeof body.model === "string" ? body.model : null,
      promptTokens: u.prompt_tokens ?? 0,
      completionTokens: u.completion_tokens ?? 0,
      ...(cache ? { cache } : {}),
      ...(serviceTier ? { serviceTier } : {}),
      ...(typeof finish === "string" ? { finishReason: finish } : {}),
    };
  },
  fromEvent(e, acc) {
    // Parse only the chunks that can tell us something: the first, and the usage chunk.
    if (e.data === "[DONE]" || (acc.model !== null && !mayCarryUsage(e.data))) return false;
    let chunk: { model?: unknown; usage?: Usage | null; service_tier?: unknown } | null;
    try {
      chunk = JSON.parse(e.data);
    } catch {
      return false;
    }
    // `data: null` parses: read, it threw in the tap, leaving the stream unaccounted and shutdown waiting on it.
    if (typeof chunk !== "object" || chunk === null) return false;
    if (typeof chunk.usage === "object" && chunk.usage !== null) {
      acc.promptTokens = chunk.usage.prompt_tokens ?? acc.promptTokens;
      acc.completionTokens = chunk.usage.completion_tokens ?? acc.completionTokens;
      acc.cache = cacheOf(chunk.usage, acc) ?? acc.cache;
    }
    // Every chunk names the tier; the ones read (the first, the usage chunk) are enough, the last word kept.
    acc.serviceTier = serviceTierOf(chunk.service_tier) ?? acc.serviceTier;
    // Azure's first chunk carries its content filter's results and `"model":""`: the model is named by the next.
    if (acc.model === null && typeof chunk.model === "string" && chunk.model !== "") {
      acc.model = chunk.model;
      return true;
    }
    return false;
  },
  carriesAnswer(e) {
    // The role-only first chunk and the usage-only chunk carry no text; every other delta carries a token or more.
    return ANSWER_TEXT.test(e.data);
  },
  errorEvent(err) {
    // The chat-completions streams carry an error as a data object, then end.
    return encodeSse({ data: JSON.stringify(errorBody("openai", err)) });
  },
  streamEnd(e) {
    if (e.data === "[DONE]") return "done";
    // An error chunk (`{"error":…}`, OpenRouter's chunk with an `error` member, vLLM's
    // `"object":"error"`): text inside a chunk has its quotes escaped, so only a member or a
    // value named error matches. One native substring search on every chunk; the pattern,
    // which lets `"error": null` (some servers write it in every chunk) pass, only on those.
    return e.data.includes('"error"') && ERROR_CHUNK.test(e.data) ? "error" : null;
  },
  errorOf(e) {
    const data = eventObject(e);
    if (typeof data.error === "string") return streamError(undefined, undefined, data.error);
    const err = typeof data.error === "object" && data.error !== null ? data.error : data;
    return streamError(err.type, err.code, err.message);
  },
  closingFor(_acc, last) {
    // The usage chunk follows the finishing one: the last two events are read.
    return last.some(finishes) ? DONE : null;
  },
};
