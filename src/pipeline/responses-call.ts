/**
 * The parts of a Responses API call (`POST /v1/responses`) that differ from a chat
 * call: what it needs from a model and how large it is (read from its own body, so a
 * call a chat provider could not take is still planned and priced), which targets
 * take it as written, and the translation for those that do not. A provider whose
 * spec says it serves the Responses API (OpenAI) gets the caller's body untouched,
 * stored state (`previous_response_id`, `conversation`) and built-in tools included
 * (for a sandbox key, the simulator answers it the same way); any other gets it as
 * chat completions and answers in the Responses shape, refusing with a 400 naming the
 * field what chat completions cannot carry.
 */
import { badRequest } from "../lib/errors.ts";
import type { ProviderAdapter, ResponsesCapable } from "../providers/adapter.ts";
import { canRespond } from "../providers/adapter.ts";
import { reservedToolFees } from "../providers/openai-compatible/responses-tool-fees.ts";
import { offersResponses } from "../providers/specs.ts";
import type { Target } from "../providers/target.ts";
import { chatNeeds, type RouteNeeds } from "../routing/needs.ts";
import { type ChatCompletionRequest, chatCompletionRequest } from "../schemas/chat-completions.ts";
import { chatCompletionToResponse, chatStreamToResponses, type ResponsesEcho } from "../translate/chat-to-responses.ts";
import { responsesToChatRequest } from "../translate/responses-to-chat.ts";
import type { CallOutcome } from "./call-types.ts";
import { TargetUnsuitable } from "./fallback.ts";
import type { CallSize } from "./reserve-spend.ts";

type Json = Record<string, unknown>;

/** The call's turns as texts to size: instructions, messages, function calls and their outputs (reasoning items are the provider's state). */
function turnsOf(body: Json): { content?: unknown }[] {
  const turns: { content?: unknown }[] = [];
  if (typeof body.instructions === "string") turns.push({ content: body.instructions });
  if (typeof body.input === "string") turns.push({ content: body.input });
  else if (Array.isArray(body.input)) {
    for (const item of body.input as (Json | null)[]) {
      if (!item || typeof item !== "object") continue;
      const content = item.content ?? item.output ?? item.arguments;
      if (content !== undefined) turns.push({ content });
    }
  }
  return turns;
}

/** What the call needs from a model, for routing and the capability checks: tools, images, JSON output, its size. */
export function responsesNeeds(body: Json): RouteNeeds {
  const format = (body.text as { format?: { type?: unknown } } | null | undefined)?.format?.type;
  return chatNeeds({
    messages: turnsOf(body),
    tools: Array.isArray(body.tools) ? body.tools : null,
    response_format: format === "json_object" || format === "json_schema" ? { type: format } : null,
    max_tokens: typeof body.max_output_tokens === "number" ? body.max_output_tokens : null,
  });
}

/** A stored conversation's size when the catalog does not know the model's context window. */
const STORED_CONTEXT_FALLBACK = 200_000;

/**
 * The call's size for the spend reservation. A call that continues stored state
 * (`previous_response_id`, `conversation`) makes the provider read the whole stored
 * conversation, which the gateway never saw: its prompt is reserved at the model's
 * context window. Built-in tools reserve their per-call fees.
 */
export function responsesSize(body: Json, target: Target): CallSize {
  const stored = isPresent(body.previous_response_id) || isPresent(body.conversation);
  return {
    messages: turnsOf(body),
    maxTokens: typeof body.max_output_tokens === "number" ? body.max_output_tokens : null,
    storedPromptTokens: stored ? (target.catalogModel?.contextWindow ?? STORED_CONTEXT_FALLBACK) : undefined,
    feeMicros: reservedToolFees(body.tools, body.max_tool_calls),
    serviceTier: body.service_tier,
  };
}

const isPresent = (v: unknown) => v !== undefined && v !== null;

/**
 * What no provider's answer can be charged for when it is given: a background
 * response answers later, through a retrieval the gateway does not see, so its cost
 * would never be known. Refused before anything is planned.
 */
export function refuseUnpriceable(body: Json): void {
  if (body.background === true)
    throw badRequest(
      "background: background responses are not supported: the gateway charges a call when its answer arrives, and a background response answers later, unseen; send it without background (and stream it for long work)",
      { param: "background" },
    );
}

/** Whether only a provider that serves the Responses API can take the call: stored state, or tools other than functions. */
function needsNative(body: Json): boolean {
  const builtIn = Array.isArray(body.tools) && body.tools.some((t) => (t as Json | null)?.type !== "function");
  return isPresent(body.previous_response_id) || isPresent(body.conversation) || builtIn;
}

/** The target's adapter when it takes the Responses API as written; null when the call is translated. */
export function nativeResponses(target: Target, adapter: ProviderAdapter): (ProviderAdapter & ResponsesCapable) | null {
  return offersResponses(target) && canRespond(adapter) ? adapter : null;
}

/**
 * The call as chat completions, for a provider without the Responses API: a 400 naming
 * what cannot be carried. A fallback target that cannot carry it is unsuitable rather
 * than the caller's error, so the call falls back further, or ends with the failure of
 * the provider that could.
 */
export function translatedChat(body: Json, target: Target, fallback: boolean): ChatCompletionRequest & Json {
  if (fallback && needsNative(body))
    throw new TargetUnsuitable("This call needs a provider that serves the Responses API (stored state or built-in tools).");
  // `reasoning_effort` only to a kind whose chat API documents it: one that refuses unknown fields would fail the call.
  const chat = responsesToChatRequest(body, { reasoningEffort: target.info.chatReasoningEffort });
  // The usage chunk closes the translated stream with `response.completed` and its usage.
  if (chat.stream === true) chat.stream_options = { include_usage: true };
  return chatCompletionRequest.parse(chat) as ChatCompletionRequest & Json;
}

/**
 * A whole chat answer in the Responses shape, for the attempt to reshape before it is
 * accounted (chatAttempt's `answerAs`): an answer it cannot read is the provider's 502.
 */
export const responsesAnswer =
  (echo: ResponsesEcho) =>
  (chat: Json): Json =>
    chatCompletionToResponse(chat, echo);

/**
 * A chat stream in the Responses shape (a whole answer was reshaped by the attempt), the
 * answer it holds bounded as a whole answer is; cost, provider and findings stay as they were.
 */
export function asResponses(outcome: CallOutcome, echo: ResponsesEcho, maxAnswerBytes: number): CallOutcome {
  if (outcome.type === "stream")
    return { ...outcome, stream: outcome.stream.pipeThrough(chatStreamToResponses(echo, undefined, maxAnswerBytes)) };
  return outcome;
}
