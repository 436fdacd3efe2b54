/**
 * The Responses API's wire format as the gateway reads it, for calls forwarded to a
 * provider that serves it natively: the answer's `model` and `usage` (`input_tokens`,
 * of which `input_tokens_details.cached_tokens` were read from the prompt cache,
 * `output_tokens`) on the body, or on the `response` snapshot that the stream's
 * `response.created` (model) and `response.completed` / `response.incomplete` (usage)
 * events carry, and the fees of the built-in tools its output items show were called
 * (responses-tool-fees.ts). An error after the stream started is written as
 * `response.failed`, the event the official clients end a failed response with
 * (responses-failed.ts).
 */
import type { ApiError } from "../../lib/errors.ts";
import type { SseEvent } from "../../lib/sse.ts";
import { type CallUsage, cacheTokens, eventObject, serviceTierOf, streamError, type WireFormat } from "../wire-format.ts";
import { responsesFailed } from "./responses-failed.ts";
import { toolCallFees } from "./responses-tool-fees.ts";

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  /** Of `input_tokens`, those read from the prompt cache (and written, where a server reports it). */
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
}

interface Snapshot {
  model?: unknown;
  usage?: Usage | null;
  output?: unknown;
  service_tier?: unknown;
}

/** A text, refusal or tool-argument delta event, and a non-empty delta (read separately: member order is not fixed). */
const DELTA_EVENT = /"type":"response\.(?:output_text|refusal|function_call_arguments)\.delta"/;
const NON_EMPTY_DELTA = /"delta":"(?!")/;
/** An event whose snapshot carries usage (a finished response). */
const HAS_USAGE = /"usage":\s*\{/;

/** The events that end a response: finished, cut short, failed, or the stream's error event. */
const ENDS: Record<string, "done" | "error"> = Object.assign(Object.create(null), {
  "response.completed": "done",
  "response.incomplete": "done",
  "response.failed": "error",
  error: "error",
});
/** The same told from the data, for a server that writes no event names. */
const ENDS_IN_DATA = /"type":\s*"(response\.(?:completed|incomplete|failed)|error)"/;

function read(snapshot: Snapshot | null | undefined, acc: CallUsage): void {
  if (typeof snapshot !== "object" || snapshot === null || typeof snapshot.usage !== "object" || snapshot.usage === null) return;
  // A finished response: its usage, and the whole output, whose tool calls carry fees.
  acc.promptTokens = snapshot.usage.input_tokens ?? acc.promptTokens;
  acc.completionTokens = snapshot.usage.output_tokens ?? acc.completionTokens;
  const details = snapshot.usage.input_tokens_details;
  const cache =
    typeof details === "object" && details !== null ? cacheTokens(details.cached_tokens, details.cache_write_tokens) : undefined;
  if (cache) acc.cache = cache;
  acc.feeMicros = toolCallFees(snapshot.output);
  const tier = serviceTierOf(snapshot.service_tier);
  if (tier) acc.serviceTier = tier;
}

export const responsesWire: WireFormat = {
  bodyMembers: ["model", "usage", "output", "service_tier"],
  fromBody(body) {
    const acc: CallUsage = { model: typeof body.model === "string" ? body.model : null, promptTokens: 0, completionTokens: 0 };
    read(body as Snapshot, acc);
    return acc;
  },
  fromEvent(e, acc) {
    // Parse only the events that can tell something: the first to name the model, and those with usage.
    if (acc.model !== null && !HAS_USAGE.test(e.data)) return false;
    let event: { response?: Snapshot } | null;
    try {
      event = JSON.parse(e.data);
    } catch {
      return false;
    }
    // `data: null` parses, and must not throw in the tap (the stream would never be accounted).
    if (typeof event !== "object" || event === null) return false;
    read(event.response, acc);
    if (acc.model === null && typeof event.response?.model === "string") {
      acc.model = event.response.model;
      return true;
    }
    return false;
  },
  carriesAnswer(e) {
    return NON_EMPTY_DELTA.test(e.data) && DELTA_EVENT.test(e.data);
  },
  errorEvent(err: ApiError, at?: SseEvent, after?: boolean) {
    return responsesFailed(err, at, after);
  },
  streamEnd(e) {
    if (e.event !== null) return ENDS[e.event] ?? null;
    const m = ENDS_IN_DATA.exec(e.data);
    return m ? (ENDS[m[1] as string] ?? null) : null;
  },
  errorOf(e) {
    const data = eventObject(e);
    // response.failed carries the response with its error; the error event its members at the top.
    const err = typeof data.response?.error === "object" && data.response.error !== null ? data.response.error : data;
    return streamError(err.type, err.code, err.message);
  },
  closingFor() {
    // response.completed carries the whole response, which the gateway did not keep.
    return null;
  },
};
