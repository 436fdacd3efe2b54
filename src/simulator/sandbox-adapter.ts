/**
 * The sandbox as a provider: one adapter per wire family whose requests are answered in
 * process by the simulator, in the same shapes a provider of that family sends (plain
 * and streamed, tool calls, usage). A test key's call therefore takes the request path
 * unchanged (authorization, scanning, the endpoint's format check, reading the answer's
 * model and usage, accounting) and differs only in what answers it: nothing is sent.
 * The chat family also serves the Responses API as OpenAI does, for targets whose kind
 * offers it, with its own memory of responses (per node, a bounded number), so stored
 * state and built-in tools work for a test key where they would for a live one.
 */
import type { EmbeddingsCapable, ProviderAdapter, ResponsesCapable, UpstreamRequest, WireFamily } from "../providers/adapter.ts";
import type { Target } from "../providers/target.ts";
import { simulatedMessagesResponse } from "./messages-format.ts";
import { simulatedChatCompletion, simulatedEmbeddings } from "./openai-format.ts";
import { ResponsesMemory, simulatedResponses } from "./responses-format.ts";

type Json = Record<string, unknown>;

/** The body as a provider would read it: naming the model the target names. */
const asSent = (t: Target, body: Json) => (body.model === t.model ? body : { ...body, model: t.model });

function answered(operation: string, answer: () => Response | Promise<Response>): UpstreamRequest {
  return { url: `sandbox:${operation}`, headers: {}, local: answer };
}

/** Whose stored responses a call may continue: the organization the sandbox target stands in for (sandbox-target.ts). */
const ownerOf = (t: Target) => (t.credentials.type === "api-key" ? t.credentials.apiKey : "");

/** The sandbox's stored responses, for `previous_response_id`. */
const SANDBOX_RESPONSES = new ResponsesMemory();

const chat = {
  wire: "chat",
  request: (t, body) => answered("chat/completions", () => simulatedChatCompletion(asSent(t, body) as never)),
  embeddingsRequest: (t, body) => answered("embeddings", () => simulatedEmbeddings(asSent(t, body) as never)),
  responsesRequest: (t, body) => answered("responses", () => simulatedResponses(asSent(t, body), {}, SANDBOX_RESPONSES, ownerOf(t))),
} satisfies ProviderAdapter & EmbeddingsCapable & ResponsesCapable;

const messages = {
  wire: "messages",
  request: (t, body) => answered("v1/messages", () => simulatedMessagesResponse(asSent(t, body) as never)),
} satisfies ProviderAdapter;

const SANDBOX_ADAPTERS: Record<WireFamily, ProviderAdapter> = { chat, messages };

/** The simulator speaking the wire family a live call of this target would use. */
export function sandboxAdapter(wire: WireFamily): ProviderAdapter {
  return SANDBOX_ADAPTERS[wire];
}
