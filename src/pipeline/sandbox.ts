/**
 * Sandbox mode: a `gw_test_` key never reaches a provider. The built-in simulator
 * answers in the same shapes, in either format (plain and streamed, tool calls when
 * tools are given, realistic usage) at zero cost, and the call is accounted like any other, so
 * integrations can be built and tested without spending or leaking anything. The
 * simulator answers only after the live checks (model resolution without a key, see
 * sandbox-target.ts, authorization, scanning, the endpoint's format), so a sandbox
 * call fails exactly where a live one would.
 */
import type { ChatCompletionRequest } from "../schemas/chat-completions.ts";
import type { EmbeddingsRequest } from "../schemas/embeddings.ts";
import type { MessagesRequest } from "../schemas/messages.ts";
import type { Identity } from "../domain/identity.ts";
import { simulateChat } from "../simulator/chat-simulator.ts";
import { simulatedMessage, simulatedMessagesResponse } from "../simulator/messages-format.ts";
import { simulatedChatCompletion, simulatedEmbeddings } from "../simulator/openai-format.ts";
import type { Accountant } from "./account.ts";
import type { CallInput, JsonOutcome, StreamOutcome } from "./call-types.ts";

export const SANDBOX_PROVIDER = "sandbox";

export function isSandbox(identity: Identity): boolean {
  return identity.kind === "serviceAccount" && identity.key.keyType === "test";
}

async function asJson(input: CallInput, model: string, res: Response, accountant: Accountant): Promise<JsonOutcome> {
  const text = await res.text();
  const body = JSON.parse(text) as { usage?: { prompt_tokens?: number; completion_tokens?: number } } & Record<string, unknown>;
  await accountant.record(input.scope, {
    provider: SANDBOX_PROVIDER,
    model,
    status: 200,
    errorCode: null,
    promptTokens: body.usage?.prompt_tokens ?? 0,
    completionTokens: body.usage?.completion_tokens ?? 0,
    free: true,
  });
  return { type: "json", status: 200, text, servedBy: `${SANDBOX_PROVIDER}/${model}`, costMicros: 0 };
}

export async function sandboxChat(
  input: CallInput,
  body: ChatCompletionRequest,
  accountant: Accountant,
): Promise<JsonOutcome | StreamOutcome> {
  const res = await simulatedChatCompletion(body as never);
  if (!body.stream) return asJson(input, body.model, res, accountant);
  const answer = simulateChat(body as never);
  await accountant.record(input.scope, {
    provider: SANDBOX_PROVIDER,
    model: body.model,
    status: 200,
    errorCode: null,
    promptTokens: answer.promptTokens,
    completionTokens: answer.completionTokens,
    free: true,
  });
  return { type: "stream", status: 200, stream: res.body as ReadableStream<Uint8Array>, servedBy: `${SANDBOX_PROVIDER}/${body.model}` };
}

export function sandboxEmbeddings(input: CallInput, body: EmbeddingsRequest, accountant: Accountant): Promise<JsonOutcome> {
  return asJson(input, body.model, simulatedEmbeddings(body), accountant);
}

export async function sandboxMessages(
  input: CallInput,
  body: MessagesRequest,
  accountant: Accountant,
): Promise<JsonOutcome | StreamOutcome> {
  const message = simulatedMessage(body as never);
  const usage = message.usage as { input_tokens: number; output_tokens: number };
  await accountant.record(input.scope, {
    provider: SANDBOX_PROVIDER,
    model: body.model,
    status: 200,
    errorCode: null,
    promptTokens: usage.input_tokens,
    completionTokens: usage.output_tokens,
    free: true,
  });
  const servedBy = `${SANDBOX_PROVIDER}/${body.model}`;
  if (!body.stream) return { type: "json", status: 200, text: JSON.stringify(message), servedBy, costMicros: 0 };
  const res = await simulatedMessagesResponse(body as never);
  return { type: "stream", status: 200, stream: res.body as ReadableStream<Uint8Array>, servedBy };
}
