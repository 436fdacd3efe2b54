/**
 * The mock's Responses API (`POST /v1/responses`) and the messages format's token count
 * (`POST /v1/messages/count_tokens`). The mock answers Responses calls natively, as a
 * provider that offers the API would, by running its chat simulator through the same
 * translations the gateway uses for providers that do not: so a test can tell a
 * native call (this path in /_mock/requests) from a translated one (chat completions).
 */
import { ApiError } from "../lib/errors.ts";
import { estimatePromptTokens } from "../lib/token-estimate.ts";
import { openAiError, type SimulatedChatOptions, simulatedChatCompletion } from "../simulator/openai-format.ts";
import { chatCompletionToResponse, chatStreamToResponses, type ResponsesEcho } from "../translate/chat-to-responses.ts";
import { responsesToChatRequest } from "../translate/responses-to-chat.ts";

export async function mockResponses(body: Record<string, unknown>, opts: SimulatedChatOptions): Promise<Response> {
  if (typeof body.model !== "string" || body.input === undefined) return openAiError(400, "model and input are required");
  let chat: Record<string, unknown>;
  try {
    chat = responsesToChatRequest(body);
  } catch (err) {
    return openAiError(400, err instanceof ApiError ? err.message : "invalid request");
  }
  if (chat.stream === true) chat.stream_options = { include_usage: true };
  const echo = body as ResponsesEcho;
  const res = await simulatedChatCompletion(chat as never, opts);
  if (!res.ok || !res.body) return res;
  if (chat.stream === true)
    return new Response(res.body.pipeThrough(chatStreamToResponses(echo)), { headers: { "content-type": "text/event-stream" } });
  return Response.json(chatCompletionToResponse((await res.json()) as never, echo));
}

/** The vendor's count: the system prompt, the messages and the tools' definitions, with the mock's tokenizer. */
export function mockCountTokens(body: Record<string, unknown>): Response {
  if (typeof body.model !== "string" || !Array.isArray(body.messages)) {
    return Response.json(
      { type: "error", error: { type: "invalid_request_error", message: "model and messages are required" } },
      { status: 400 },
    );
  }
  const system = body.system === undefined ? [] : [{ role: "system", content: body.system }];
  const tools = Array.isArray(body.tools) ? [{ role: "system", content: JSON.stringify(body.tools) }] : [];
  return Response.json({ input_tokens: estimatePromptTokens([...system, ...(body.messages as { content?: unknown }[]), ...tools]) });
}
