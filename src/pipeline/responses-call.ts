/**
 * The parts of a Responses API call (`POST /v1/responses`) that differ from a chat
 * call: what it needs from a model and how large it is (read from its own body, so a
 * call a chat provider could not take is still planned and priced), which targets
 * take it as written, and the translation for those that do not. A provider whose
 * spec says it serves the Responses API (OpenAI) gets the caller's body untouched,
 * stored state (`previous_response_id`, `conversation`) and built-in tools included;
 * any other (chat or messages format, the sandbox's simulator) gets it as chat
 * completions and answers in the Responses shape, refusing with a 400 naming the
 * field what chat completions cannot carry.
 */
import type { ProviderAdapter, ResponsesCapable } from "../providers/adapter.ts";
import { canRespond } from "../providers/adapter.ts";
import { offersResponses } from "../providers/specs.ts";
import type { Target } from "../providers/target.ts";
import { chatNeeds, type RouteNeeds } from "../routing/needs.ts";
import { type ChatCompletionRequest, chatCompletionRequest } from "../schemas/chat-completions.ts";
import { chatCompletionToResponse, chatStreamToResponses, type ResponsesEcho } from "../translate/chat-to-responses.ts";
import { responsesToChatRequest } from "../translate/responses-to-chat.ts";
import type { CallOutcome } from "./call-types.ts";
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

/** The call's size for the spend reservation. */
export function responsesSize(body: Json): CallSize {
  return { messages: turnsOf(body), maxTokens: typeof body.max_output_tokens === "number" ? body.max_output_tokens : null };
}

/** The target's adapter when it takes the Responses API as written; null when the call is translated. */
export function nativeResponses(target: Target, adapter: ProviderAdapter): (ProviderAdapter & ResponsesCapable) | null {
  return !target.simulated && offersResponses(target.kind) && canRespond(adapter) ? adapter : null;
}

/** The call as chat completions, for a provider without the Responses API: a 400 naming what cannot be carried. */
export function translatedChat(body: Json): ChatCompletionRequest & Json {
  const chat = responsesToChatRequest(body);
  // The usage chunk closes the translated stream with `response.completed` and its usage.
  if (chat.stream === true) chat.stream_options = { include_usage: true };
  return chatCompletionRequest.parse(chat) as ChatCompletionRequest & Json;
}

/** A chat answer in the Responses shape; the outcome's cost, provider and findings stay as they were. */
export function asResponses(outcome: CallOutcome, echo: ResponsesEcho): CallOutcome {
  if (outcome.type === "stream") return { ...outcome, stream: outcome.stream.pipeThrough(chatStreamToResponses(echo)) };
  return { ...outcome, text: JSON.stringify(chatCompletionToResponse(JSON.parse(outcome.text), echo)) };
}
