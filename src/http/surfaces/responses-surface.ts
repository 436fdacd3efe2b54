/**
 * `POST /v1/responses`: the Responses API, translated to a chat-completions call and
 * back for every provider (the pipeline's chat path then translates once more for
 * messages-format providers). Going through `ModelCalls.chat` gives the call every
 * policy stage chat has: scanning (`instructions` and `input` become messages),
 * geography, spend reservation, substitution detection, usage and sandbox answers.
 */
import { readJsonObject } from "../../lib/json-body.ts";
import type { ModelCalls } from "../../pipeline/model-call.ts";
import type { CallOutcome } from "../../pipeline/call-types.ts";
import { chatCompletionRequest } from "../../schemas/chat-completions.ts";
import { responsesRequest } from "../../schemas/responses.ts";
import { chatCompletionToResponse, chatStreamToResponses, type ResponsesEcho } from "../../translate/chat-to-responses.ts";
import { responsesToChatRequest } from "../../translate/responses-to-chat.ts";
import { callInput, outcomeResponse } from "../call-response.ts";
import type { AdmittedScope } from "../request-runner.ts";

export interface ResponsesSurfaceDeps {
  calls: ModelCalls;
  maxBodyBytes: number;
}

export function responsesHandler(deps: ResponsesSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const raw = await readJsonObject(scope.request, deps.maxBodyBytes);
    responsesRequest.parse(raw);
    const chat = responsesToChatRequest(raw);
    // The usage chunk closes the translated stream with `response.completed` and its usage.
    if (chat.stream === true) chat.stream_options = { include_usage: true };
    const body = chatCompletionRequest.parse(chat) as ReturnType<typeof chatCompletionRequest.parse> & Record<string, unknown>;
    const outcome = await deps.calls.chat(callInput(scope, scope.identity), body);
    return outcomeResponse(asResponses(outcome, raw));
  };
}

/** The chat answer in the Responses shape; the outcome's cost, provider and security findings stay as they were. */
function asResponses(outcome: CallOutcome, echo: ResponsesEcho): CallOutcome {
  if (outcome.type === "stream") return { ...outcome, stream: outcome.stream.pipeThrough(chatStreamToResponses(echo)) };
  return { ...outcome, text: JSON.stringify(chatCompletionToResponse(JSON.parse(outcome.text), echo)) };
}
