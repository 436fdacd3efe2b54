/**
 * What the gateway reads from a wire format's answers: the model that answered and
 * the usage, from a whole body or from stream events as they pass, and how that
 * format writes an error into a stream that has already started.
 */
import type { ApiError } from "../lib/errors.ts";
import type { SseEvent } from "../lib/sse.ts";
import type { CacheTokens } from "./catalog/catalog.ts";

export interface CallUsage {
  model: string | null;
  /** Every prompt token, those read from or written to the provider's prompt cache included. */
  promptTokens: number;
  completionTokens: number;
  /** Of `promptTokens`, those the provider read from or wrote to its prompt cache, priced apart; absent when it said none. */
  cache?: CacheTokens;
  /** What the provider charges beside the tokens (a built-in tool's calls), in micro-dollars. */
  feeMicros?: number;
  /** The service tier the provider says it served the call at (OpenAI's `service_tier`): priced at that tier's rates. */
  serviceTier?: string;
  /** Why the answer ended (`stop`, `tool_calls`, `end_turn`…), where the format says it without extra parsing. */
  finishReason?: string;
}

/** How an event bears on the stream's end: its closing event (`done`), an error event (which ends it too), or neither (null). */
export type StreamEnd = "done" | "error" | null;

/** What a stream's error event says: the HTTP status the same error has as a whole answer, and the provider's message. */
export interface StreamError {
  status: number;
  message: string;
}

/**
 * The HTTP status each error type (or code) stands for, as the vendors document them: an
 * error event carries a type where a whole answer carries a status. Unknown: the provider's 500.
 * The messages vendor's types are its SDK's `ErrorObject` union
 * (anthropics/anthropic-sdk-typescript, src/resources/shared.ts), statuses from its errors page.
 */
const STATUS_OF: Record<string, number> = Object.assign(Object.create(null), {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  api_error: 500,
  server_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
  service_unavailable: 503,
});

/** An error event's members as a StreamError: a numeric code that is an HTTP error status (OpenRouter, vLLM) is that status. */
export function streamError(type: unknown, code: unknown, message: unknown): StreamError {
  const status =
    typeof code === "number" && code >= 400 && code < 600
      ? code
      : ((typeof code === "string" ? STATUS_OF[code] : undefined) ?? (typeof type === "string" ? STATUS_OF[type] : undefined) ?? 500);
  return { status, message: typeof message === "string" && message !== "" ? message : "(no message)" };
}

/** An event's data parsed as an object, or an empty one: read only for error events, which are rare. */
export function eventObject(e: SseEvent): Record<string, any> {
  try {
    const data: unknown = JSON.parse(e.data);
    return typeof data === "object" && data !== null ? (data as Record<string, any>) : {};
  } catch {
    return {};
  }
}

export const emptyUsage = (): CallUsage => ({ model: null, promptTokens: 0, completionTokens: 0 });

/** A provider's count as a count: a whole number of tokens, anything else (text, null, negative) none. */
export const tokenCount = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** Cache counts worth keeping: none when the provider reported no cache tokens at all. */
export function cacheTokens(read: unknown, write: unknown, writeLong: unknown = 0): CacheTokens | undefined {
  const c = { read: tokenCount(read), write: tokenCount(write), writeLong: tokenCount(writeLong) };
  return c.read + c.write > 0 ? c : undefined;
}

/** A provider's `service_tier` worth keeping: a short name, anything else none. */
export const serviceTierOf = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 && v.length <= 32 ? v : undefined);

export interface WireFormat {
  /** The top-level members of an answer's body that `fromBody` reads. */
  readonly bodyMembers: readonly string[];
  fromBody(body: Record<string, unknown>): CallUsage;
  /** Updates `acc` from one stream event; returns true when this event is the first to name the model. */
  fromEvent(e: SseEvent, acc: CallUsage): boolean;
  /**
   * True when the event carries a piece of the answer (at least one token): counted as
   * the stream passes, without parsing, to charge a stream cut off before its usage.
   */
  carriesAnswer(e: SseEvent): boolean;
  /**
   * The error, as this format's clients expect it in a stream, ending it; `at` is the
   * event it replaces, or with `after` the last event before it.
   */
  errorEvent(err: ApiError, at?: SseEvent, after?: boolean): Uint8Array;
  /**
   * Whether the event closes the stream (`[DONE]`, `message_stop`, `response.completed`…)
   * or is an error event. Called on every event: told by the event's name, or a substring
   * of its data where the format names no events, never by parsing it.
   */
  streamEnd(e: SseEvent): StreamEnd;
  /** An error event's (`streamEnd` said "error") status and message, for the call's record and the provider's health. */
  errorOf(e: SseEvent): StreamError;
  /**
   * For a stream that ended without its closing event: whether the answer said how it
   * finished before that (a stop reason, read into `acc` or on the last events), so it is
   * whole and only the closing event was lost (as behind some proxies); then the closing
   * event to write in its place. Null when the answer is not whole, or the format has no
   * closing event the gateway can write (a Responses stream's carries the whole response).
   */
  closingFor(acc: CallUsage, last: readonly (SseEvent | null)[]): Uint8Array | null;
}
