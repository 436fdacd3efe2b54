/**
 * `POST /v1/messages`: the messages format, for messages-format providers (the vendor
 * directly, and the cloud platform for `anthropic.*` ids). The key comes as
 * `x-api-key` or Bearer; the version header as `anthropic-version` (what the official
 * SDK sends) or `msg-version`; it passes through with every other `anthropic-*` header.
 */
import { messagesRequest } from "../../schemas/messages.ts";
import { readJsonObject } from "../../lib/json-body.ts";
import type { ModelCalls } from "../../pipeline/model-call.ts";
import { callInput, outcomeResponse } from "../call-response.ts";
import type { AdmittedScope } from "../request-runner.ts";

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
