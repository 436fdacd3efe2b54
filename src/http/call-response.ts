/** Between a model surface and the pipeline: the call as the pipeline sees it, and its outcome as an HTTP response. */
import type { CallInput, CallOutcome } from "../pipeline/model-call.ts";
import type { Identity } from "../domain/identity.ts";
import { badRequest } from "../lib/errors.ts";
import type { RequestScope } from "./request-scope.ts";
import { headerValue } from "../lib/header-value.ts";
import { isPlainText, PLAIN_TEXT_RULE } from "../lib/plain-text.ts";

/** An application label: what `context.applicationId` accepts, and so the header too. */
const MAX_APPLICATION = 200;

/** `x-gw-application`: the application a call is for, recorded on its usage (cost views group and filter by it). */
export function applicationOf(headers: Headers): string | null {
  const raw = headers.get("x-gw-application")?.trim();
  if (!raw) return null;
  if (raw.length > MAX_APPLICATION)
    throw badRequest(`x-gw-application: at most ${MAX_APPLICATION} characters`, { param: "x-gw-application" });
  // A header's bytes past ASCII read as Latin-1, so 0x80-0x9f arrive as C1 controls the cost views would show.
  if (!isPlainText(raw)) throw badRequest(`x-gw-application: must be ${PLAIN_TEXT_RULE}`, { param: "x-gw-application" });
  return raw;
}

export function callInput(scope: RequestScope, identity: Identity): CallInput {
  return {
    scope: {
      identity,
      requestId: scope.requestId,
      startedAt: scope.startedAtMs,
      applicationId: applicationOf(scope.request.headers),
      trace: scope.trace,
      charge: scope.charge,
    },
    headers: scope.request.headers,
    caller: scope.request,
  };
}

/**
 * The frame's headers (request id, rate limit) written into a surface's own, for a
 * response built in one go; false while the charge is undecided (held back for the spend
 * reservation): the runner sets them at the end, as on every other response.
 */
export function frameHeaders(scope: RequestScope, into: Record<string, string>): boolean {
  const rate = scope.rate;
  if (rate === null) return false;
  into["x-request-id"] = scope.requestId;
  if (scope.surface === "messages") into["request-id"] = scope.requestId;
  into["x-ratelimit-limit"] = String(rate.limit);
  into["x-ratelimit-remaining"] = String(rate.remaining);
  into["x-ratelimit-reset"] = String(rate.resetAtS);
  return true;
}

/**
 * The provider's answer as an HTTP response: JSON bytes untouched, or the stream piped
 * through. With the request's scope, the frame's headers (request id, rate limit) go in
 * the same headers, so the response is built once instead of edited after.
 */
export function outcomeResponse(o: CallOutcome, scope?: RequestScope): Response {
  const json = o.type === "json";
  const h: Record<string, string> = json
    ? { "content-type": "application/json" }
    : { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
  // Names are validated at the edge; one stored before that rule must still not break the response.
  h["x-gw-provider"] = headerValue(o.servedBy);
  if (o.security) h["x-gw-security"] = o.security;
  if (o.priceEstimated) h["x-gw-price"] = "estimated";
  if (o.routedTo) h["x-gw-moe-routed"] = headerValue(o.routedTo);
  if (o.attempts !== undefined) h["x-gw-attempts"] = String(o.attempts);
  if (o.routeSkipped) h["x-gw-route-skipped"] = headerValue(o.routeSkipped);
  if (o.optimizedTokens) h["x-gw-optimized-tokens"] = o.optimizedTokens;
  if (json && o.embeddingChunks) h["x-gw-embedding-chunks"] = o.embeddingChunks;
  const framed = scope !== undefined && frameHeaders(scope, h);
  const response = json ? new Response(o.text, { status: o.status, headers: h }) : new Response(o.stream, { status: o.status, headers: h });
  if (framed) scope.framed = response;
  return response;
}
