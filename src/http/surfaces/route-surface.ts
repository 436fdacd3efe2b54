/** `POST /api/byok/route`: a chat request routed by strategy, answered with the choice and the completion (general envelope for errors). */
import { type BodyLimits, readJsonObject } from "../../lib/json-body.ts";
import type { ModelCalls } from "../../pipeline/model-call.ts";
import { routeAndAnswer } from "../../ops/route-ops.ts";
import { callInput } from "../call-response.ts";
import { headerValue } from "../../lib/header-value.ts";
import { json } from "../json-response.ts";
import type { AdmittedScope } from "../request-scope.ts";

export interface RouteSurfaceDeps {
  calls: ModelCalls;
  /** The request body's size and time limits. */
  body: BodyLimits;
}

export function routeHandler(deps: RouteSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const body = await readJsonObject(scope.request, deps.body, scope.server);
    const { answer, outcome } = await routeAndAnswer(deps.calls, callInput(scope, scope.identity), body, "body");
    const res = json(answer);
    // As on the chat endpoint: who answered, and whether its cost is an estimate (a model the catalog does not price).
    res.headers.set("x-gw-provider", headerValue(outcome.servedBy));
    if (outcome.priceEstimated) res.headers.set("x-gw-price", "estimated");
    if (outcome.routedTo) res.headers.set("x-gw-moe-routed", headerValue(outcome.routedTo));
    if (outcome.attempts !== undefined) res.headers.set("x-gw-attempts", String(outcome.attempts));
    if (outcome.routeSkipped) res.headers.set("x-gw-route-skipped", headerValue(outcome.routeSkipped));
    if (outcome.security) res.headers.set("x-gw-security", outcome.security);
    if (outcome.optimizedTokens) res.headers.set("x-gw-optimized-tokens", outcome.optimizedTokens);
    return res;
  };
}
