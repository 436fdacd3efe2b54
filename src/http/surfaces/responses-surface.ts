/**
 * `POST /v1/responses`: the Responses API, checked at the edge in the caller's own
 * field names and then taken by `ModelCalls.responses`, which gives it every policy
 * stage a chat call has (scanning of `instructions` and `input`, geography, spend
 * reservation, substitution detection, usage, sandbox answers). A provider that serves
 * the API gets the body as written; any other gets it translated to chat completions
 * (pipeline/responses-call.ts).
 */
import { type BodyLimits, readJsonObject } from "../../lib/json-body.ts";
import type { ModelCalls } from "../../pipeline/model-call.ts";
import { type ResponsesRequest, responsesRequest } from "../../schemas/responses.ts";
import { callInput, outcomeResponse } from "../call-response.ts";
import type { AdmittedScope } from "../request-scope.ts";

export interface ResponsesSurfaceDeps {
  calls: ModelCalls;
  /** The request body's size and time limits. */
  body: BodyLimits;
}

export function responsesHandler(deps: ResponsesSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const raw = await readJsonObject(scope.request, deps.body, scope.server);
    const body = responsesRequest.parse(raw) as ResponsesRequest & Record<string, unknown>;
    return outcomeResponse(await deps.calls.responses(callInput(scope, scope.identity), body), scope);
  };
}
