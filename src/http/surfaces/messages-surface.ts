/**
 * `POST /v1/messages`: the messages format, for messages-format providers (the vendor
 * directly, and the cloud platform for `anthropic.*` ids). The key comes as
 * `x-api-key` or Bearer; the version header as `anthropic-version` (what the official
 * SDK sends) or `msg-version`; it passes through with every other `anthropic-*` header.
 */
import { messagesCountTokensRequest, messagesRequest } from "../../schemas/messages.ts";
import { readJsonObject } from "../../lib/json-body.ts";
import type { ModelCalls } from "../../pipeline/model-call.ts";
import { callInput, outcomeResponse } from "../call-response.ts";
import type { AdmittedScope } from "../request-runner.ts";
import { headerValue } from "../../lib/header-value.ts";
import { json } from "../json-response.ts";

export interface MessagesSurfaceDeps {
  calls: ModelCalls;
  maxBodyBytes: number;
}

export function messagesHandler(deps: MessagesSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    const body = messagesRequest.parse(await readJsonObject(scope.request, deps.maxBodyBytes));
    return outcomeResponse(await deps.calls.messages(callInput(scope, identity), body));
  };
}

/**
 * `POST /v1/messages/count_tokens`: the provider's own count when it has one, else the
 * gateway's tokenizer with `x-gw-token-count: estimated`. Not charged.
 */
export function countTokensHandler(deps: MessagesSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const body = messagesCountTokensRequest.parse(await readJsonObject(scope.request, deps.maxBodyBytes));
    const count = await deps.calls.countTokens(callInput(scope, scope.identity), body);
    const headers: Record<string, string> = { "x-gw-provider": headerValue(count.servedBy), "x-gw-security": count.security };
    if (count.estimated) headers["x-gw-token-count"] = "estimated";
    return json({ input_tokens: count.inputTokens }, 200, headers);
  };
}
