/** Between a model surface and the pipeline: the call as the pipeline sees it, and its outcome as an HTTP response. */
import type { CallInput, CallOutcome } from "../pipeline/model-call.ts";
import type { Identity } from "../domain/identity.ts";
import type { RequestScope } from "./request-runner.ts";
import { headerValue } from "../lib/header-value.ts";

export function callInput(scope: RequestScope, identity: Identity): CallInput {
  return { scope: { identity, requestId: scope.requestId, startedAt: scope.startedAtMs }, headers: scope.request.headers, caller: scope.request };
}

/** The provider's answer as an HTTP response: JSON bytes untouched, or the stream piped through. */
export function outcomeResponse(o: CallOutcome): Response {
  // Names are validated at the edge; one stored before that rule must still not break the response.
  const provider: Record<string, string> = { "x-gw-provider": headerValue(o.servedBy) };
  if (o.security) provider["x-gw-security"] = o.security;
  if (o.priceEstimated) provider["x-gw-price"] = "estimated";
  if (o.type === "json") return new Response(o.text, { status: o.status, headers: { "content-type": "application/json", ...provider } });
  return new Response(o.stream, { status: o.status, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...provider } });
}
