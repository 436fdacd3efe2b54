/**
 * The chat-completions family: `POST /v1/chat/completions`, `POST /v1/embeddings`,
 * `GET /v1/models`. Each admits the caller, checks the body, calls the pipeline and
 * sends the provider's bytes back as they came.
 */
import { chatCompletionRequest } from "../../api/chat-completions.ts";
import { embeddingsRequest } from "../../api/embeddings.ts";
import { readJsonObject } from "../../lib/json-body.ts";
import type { CallInput, CallOutcome, ModelCalls } from "../../pipeline/model-call.ts";
import type { Identity } from "../../services/identity.ts";
import type { ModelList } from "../../services/model-list.ts";
import { json } from "../json-response.ts";
import type { RequestRunner, RequestScope } from "../request-runner.ts";

export interface OpenAiSurfaceDeps {
  runner: RequestRunner;
  calls: ModelCalls;
  models: ModelList;
  maxBodyBytes: number;
}

export function callInput(scope: RequestScope, identity: Identity): CallInput {
  return { scope: { identity, requestId: scope.requestId, startedAt: scope.startedAtMs }, headers: scope.request.headers, signal: scope.request.signal };
}

/** The provider's answer as an HTTP response: JSON bytes untouched, or the stream piped through. */
export function outcomeResponse(o: CallOutcome): Response {
  const provider = { "x-gw-provider": o.servedBy };
  if (o.type === "json") return new Response(o.text, { status: o.status, headers: { "content-type": "application/json", ...provider } });
  return new Response(o.stream, { status: o.status, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...provider } });
}

export function chatCompletionsHandler(deps: OpenAiSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    const identity = await deps.runner.admit(scope);
    const body = chatCompletionRequest.parse(await readJsonObject(scope.request, deps.maxBodyBytes));
    return outcomeResponse(await deps.calls.chat(callInput(scope, identity), body));
  };
}

export function embeddingsHandler(deps: OpenAiSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    const identity = await deps.runner.admit(scope);
    const body = embeddingsRequest.parse(await readJsonObject(scope.request, deps.maxBodyBytes));
    return outcomeResponse(await deps.calls.embeddings(callInput(scope, identity), body));
  };
}

export function modelsHandler(deps: OpenAiSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    const identity = await deps.runner.admit(scope);
    return json({ object: "list", data: await deps.models.list(identity) });
  };
}
