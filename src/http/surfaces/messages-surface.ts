/**
 * `POST /v1/messages`: the messages format, for messages-format providers (the vendor
 * directly, and the cloud platform for `anthropic.*` ids). The key comes as
 * `x-api-key` or Bearer; the version header as `anthropic-version` (what the official
 * SDK sends) or `msg-version`; it passes through with every other `anthropic-*` header.
 * `msg-version` is the specification's, with one documented value: any other is a 400
 * naming it. `anthropic-version` stays the vendor's to judge (docs/decisions.md).
 */
import { badRequest } from "../../lib/errors.ts";
import { DEFAULT_MESSAGES_VERSION } from "../../providers/anthropic/messages-adapter.ts";
import { messagesCountTokensRequest, messagesRequest } from "../../schemas/messages.ts";
import { type BodyLimits, readJsonObject } from "../../lib/json-body.ts";
import type { ModelCalls } from "../../pipeline/model-call.ts";
import { callInput, outcomeResponse } from "../call-response.ts";
import type { AdmittedScope } from "../request-scope.ts";
import { headerValue } from "../../lib/header-value.ts";
import { json } from "../json-response.ts";

export interface MessagesSurfaceDeps {
  calls: ModelCalls;
  /** The request body's size and time limits. */
  body: BodyLimits;
}

/** A missing `msg-version` defaults; a present one must be the value the specification documents. */
function checkVersion(headers: Headers): void {
  const version = headers.get("msg-version");
  if (version === null || version === DEFAULT_MESSAGES_VERSION) return;
  throw badRequest(`msg-version: the supported value is ${DEFAULT_MESSAGES_VERSION}, not "${version.slice(0, 40)}"`, {
    param: "msg-version",
  });
}

export function messagesHandler(deps: MessagesSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    checkVersion(scope.request.headers);
    const body = messagesRequest.parse(await readJsonObject(scope.request, deps.body, scope.server));
    return outcomeResponse(await deps.calls.messages(callInput(scope, identity), body), scope);
  };
}

/**
 * `POST /v1/messages/count_tokens`: the provider's own count when it has one, else the
 * gateway's tokenizer with `x-gw-token-count: estimated`. Not charged.
 */
export function countTokensHandler(deps: MessagesSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    checkVersion(scope.request.headers);
    const body = messagesCountTokensRequest.parse(await readJsonObject(scope.request, deps.body, scope.server));
    const count = await deps.calls.countTokens(callInput(scope, scope.identity), body);
    const headers: Record<string, string> = { "x-gw-provider": headerValue(count.servedBy), "x-gw-security": count.security };
    if (count.estimated) headers["x-gw-token-count"] = "estimated";
    return json({ input_tokens: count.inputTokens }, 200, headers);
  };
}
