/**
 * The chat-completions family: `POST /v1/chat/completions` and `POST /v1/embeddings`
 * (models: models-surface.ts). Each admits the caller, checks the body, calls the pipeline and
 * sends the provider's bytes back as they came.
 */
import { chatCompletionRequest } from "../../schemas/chat-completions.ts";
import { embeddingsRequest } from "../../schemas/embeddings.ts";
import { type BodyLimits, readJsonObject } from "../../lib/json-body.ts";
import type { ModelCalls } from "../../pipeline/model-call.ts";
import type { ModelList } from "../../services/model-list.ts";
import { callInput, outcomeResponse } from "../call-response.ts";
import type { AdmittedScope } from "../request-scope.ts";

export interface OpenAiSurfaceDeps {
  calls: ModelCalls;
  models: ModelList;
  /** The request body's size and time limits. */
  body: BodyLimits;
}

export function chatCompletionsHandler(deps: OpenAiSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    const body = chatCompletionRequest.parse(await readJsonObject(scope.request, deps.body, scope.server));
    return outcomeResponse(await deps.calls.chat(callInput(scope, identity), body), scope);
  };
}

export function embeddingsHandler(deps: OpenAiSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    const body = embeddingsRequest.parse(await readJsonObject(scope.request, deps.body, scope.server));
    return outcomeResponse(await deps.calls.embeddings(callInput(scope, identity), body), scope);
  };
}
