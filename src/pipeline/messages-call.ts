/**
 * One attempt of a messages call at one target: forwarded as written to a provider that
 * speaks the messages format, refused for one that speaks chat completions (the caller
 * is pointed at that endpoint); and what a messages body asks of the router.
 */
import { ApiError } from "../lib/errors.ts";
import { messagesWire, reservedServerToolFees, serverToolFeeCeiling } from "../providers/anthropic/messages-wire.ts";
import { chatNeeds, type RouteNeeds } from "../routing/needs.ts";
import type { MessagesRequest } from "../schemas/messages.ts";
import type { ResolvedTarget } from "./authorize.ts";
import { callAdapter } from "./call-adapter.ts";
import type { Route } from "./call-route.ts";
import type { CallInput, CallOutcome } from "./call-types.ts";
import type { Forwarder } from "./forward.ts";

/** Read back as the messages format it was sent in (shared, never changed). */
const AS_WRITTEN: Route = { wire: messagesWire };

export function messagesAttempt(
  forwarder: Forwarder,
  input: CallInput,
  target: ResolvedTarget,
  body: MessagesRequest & Record<string, unknown>,
): Promise<CallOutcome> {
  const adapter = callAdapter(target);
  if (adapter.wire !== "messages") {
    throw new ApiError(
      400,
      "invalid_request",
      `${target.model} is served by ${target.providerName} in the chat-completions format; call /v1/chat/completions for it.`,
      { param: "model" },
    );
  }
  const stream = body.stream === true;
  const size = {
    messages: messagesTurns(body),
    maxTokens: body.max_tokens,
    feeMicros: reservedServerToolFees(body.tools),
    maxFeeMicros: serverToolFeeCeiling(body.tools),
  };
  // Built when the attempt's stages let it go (forward.ts), in the messages format as the caller wrote it.
  const build = () => adapter.request(target, body, { stream, headers: input.headers });
  return forwarder.forward(input, target, adapter, build, stream, AS_WRITTEN, size);
}

export function messagesNeeds(body: MessagesRequest): RouteNeeds {
  return chatNeeds({ messages: messagesTurns(body), tools: body.tools as unknown[] | undefined, max_tokens: body.max_tokens });
}

/** A messages call's texts as turns to size: the system prompt, then the messages. */
function messagesTurns(body: MessagesRequest): { content?: unknown }[] {
  return [{ content: body.system }, ...body.messages];
}
