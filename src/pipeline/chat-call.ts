/**
 * One attempt of a chat-completions call at one target: passed through to a
 * chat-format provider, or translated both ways for a messages-format one. Usage is
 * always asked for on a stream so the call can be priced; the extra chunk is removed
 * again when the caller did not ask for it.
 */
import { messagesWire, serverToolFeeCeiling } from "../providers/anthropic/messages-wire.ts";
import { mayCarryUsage, openAiWire } from "../providers/openai-compatible/openai-wire.ts";
import type { ChatCompletionRequest } from "../schemas/chat-completions.ts";
import { chatToMessagesRequest } from "../translate/chat-to-messages.ts";
import { messagesStreamToChat, messagesToChatCompletion } from "../translate/messages-to-chat.ts";
import type { ResolvedTarget } from "./authorize.ts";
import { callAdapter } from "./call-adapter.ts";
import type { CallInput, CallOutcome } from "./call-types.ts";
import type { Route } from "./call-route.ts";
import type { Forwarder } from "./forward.ts";
import type { CallSize } from "./reserve-spend.ts";

export type ChatBody = ChatCompletionRequest & Record<string, unknown>;

/** A stream's usage-only chunk (`choices: []` with `usage`), which the gateway asked for on the caller's behalf. */
function isUsageOnlyChunk(data: string): boolean {
  if (!mayCarryUsage(data)) return false;
  try {
    const c = JSON.parse(data) as { choices?: unknown[]; usage?: unknown };
    return Array.isArray(c.choices) && c.choices.length === 0 && c.usage != null;
  } catch {
    return false;
  }
}

/** A chat-format answer relayed as it came: one shared route, not an object a call. */
const AS_SENT: Route = { wire: openAiWire };

export function chatSize(body: ChatCompletionRequest): CallSize {
  const serviceTier = (body as { service_tier?: unknown }).service_tier;
  // Both names given: the larger is held, whichever the provider's kind reads (openai-adapter.ts).
  const limits = [body.max_tokens, body.max_completion_tokens].filter((n): n is number => typeof n === "number");
  const maxTokens = limits.length > 0 ? Math.max(...limits) : undefined;
  // Each of `n` choices may write up to the limit (the model's own when none is given), and each
  // is billed: held as that many answers, or `n: 128` would slip 128 answers past a cap sized for one.
  const choices = typeof body.n === "number" && body.n > 1 ? Math.floor(body.n) : 1;
  return { messages: body.messages, maxTokens, choices, serviceTier };
}

/** A whole chat answer as another format's (a Responses caller's). */
export type AnswerAs = (chat: Record<string, unknown>) => Record<string, unknown>;

/**
 * `answerAs`: a whole answer is reshaped for a caller of another format before it is
 * accounted, so one the reshaping cannot read is accounted as the provider's 502 it is.
 */
export function chatAttempt(
  forwarder: Forwarder,
  input: CallInput,
  target: ResolvedTarget,
  body: ChatBody,
  answerAs?: AnswerAs,
): Promise<CallOutcome> {
  const adapter = callAdapter(target);
  const stream = body.stream === true;
  const callerWantsUsage = body.stream_options?.include_usage === true;
  const keep = !stream || callerWantsUsage ? undefined : (data: string) => !isUsageOnlyChunk(data);
  const reshapeAs = stream ? undefined : answerAs;
  if (adapter.wire === "chat") {
    const route = keep ? { wire: openAiWire, keep } : reshapeAs ? { wire: openAiWire, reshape: reshapeAs } : AS_SENT;
    const upstreamBody = stream && !callerWantsUsage ? { ...body, stream_options: { ...body.stream_options, include_usage: true } } : body;
    return forwarder.forward(
      input,
      target,
      adapter,
      () => adapter.request(target, upstreamBody, { stream, headers: input.headers }),
      stream,
      route,
      chatSize(body),
    );
  }
  const translated = chatToMessagesRequest(body);
  const route: Route = {
    // Translated streams are read after translation, as chat chunks.
    wire: stream ? openAiWire : messagesWire,
    reshape: reshapeAs ? (answer) => reshapeAs(messagesToChatCompletion(answer)) : messagesToChatCompletion,
    restream: messagesStreamToChat,
    keep,
  };
  return forwarder.forward(
    input,
    target,
    adapter,
    () => adapter.request(target, translated, { stream, headers: input.headers }),
    stream,
    route,
    // The messages answer's fees are read too: only what the translated request's tools allow (none, unless it has a web search tool).
    { ...chatSize(body), maxFeeMicros: serverToolFeeCeiling(translated.tools) },
  );
}
