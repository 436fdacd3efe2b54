/**
 * The `response.failed` the gateway writes itself into a native Responses API stream
 * (a model substitution found on the event that names the model): numbered in the
 * stream's sequence, with the whole response object OpenAI's description requires
 * (taken from the provider's snapshot where the event had one), after a
 * `response.created` when the event it replaces was that one, so a client always sees
 * the response created before it fails.
 */
import { responsesError } from "../../lib/error-bodies.ts";
import type { ApiError } from "../../lib/errors.ts";
import { encodeSse, type SseEvent } from "../../lib/sse.ts";

type Json = Record<string, unknown>;

function parsed(at: SseEvent | undefined): { type?: unknown; sequence_number?: unknown; response?: unknown } {
  try {
    const event = at ? JSON.parse(at.data) : {};
    return typeof event === "object" && event !== null ? event : {};
  } catch {
    return {};
  }
}

/** The response as the failed event shows it: the provider's fields where it gave them, the required ones always. */
function failedResponse(provider: Json, err: ApiError): Json {
  // Nothing was answered: no usage to show (the description has no null for it), no output.
  const { usage: _usage, output: _output, ...snapshot } = provider;
  const requested = (err.details as { requested?: unknown } | undefined)?.requested;
  return {
    id: `resp_gw${crypto.randomUUID().replaceAll("-", "")}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: null,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: null,
    metadata: {},
    ...snapshot,
    // The model asked for: the answer's own name is in the error's message.
    model: typeof requested === "string" ? requested : typeof snapshot.model === "string" ? snapshot.model : "",
    status: "in_progress",
    output: [],
    error: null,
  };
}

/**
 * The events that end the stream in place of `at` (the event the failure was found on),
 * or with `after` following it (the last event of a stream that stopped short).
 */
export function responsesFailed(err: ApiError, at?: SseEvent, after = false): Uint8Array {
  const event = parsed(at);
  const snapshot = typeof event.response === "object" && event.response !== null ? (event.response as Json) : {};
  const response = failedResponse(snapshot, err);
  const seen = typeof event.sequence_number === "number" ? event.sequence_number : after ? -1 : 0;
  const first = after ? seen + 1 : seen;
  const created = at === undefined || (!after && event.type === "response.created");
  const failed = {
    type: "response.failed",
    sequence_number: created ? first + 1 : first,
    response: { ...response, status: "failed", error: responsesError(err.code, err.message) },
  };
  const events = created ? [{ type: "response.created", sequence_number: first, response }, failed] : [failed];
  return Buffer.concat(events.map((e) => encodeSse({ event: e.type, data: JSON.stringify(e) })));
}
