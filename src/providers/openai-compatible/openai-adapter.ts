/**
 * The OpenAI-compatible family: every chat-format kind (OpenAI, Google's and Cohere's
 * compatibility endpoints, Mistral, xAI, the inference hosts, self-hosted servers,
 * Azure OpenAI). Kinds differ only in address, authentication and the name of the output
 * limit: the kind's spec builds the address (Azure's deployments included) and names the
 * limit, the catalog names the header the key travels in, so one adapter serves them all.
 */
import {
  type EmbeddingsCapable,
  type ModelListing,
  type ProviderAdapter,
  providerBody,
  type ResponsesCapable,
  type UpstreamRequest,
} from "../adapter.ts";
import { chatMaxTokensName, endpointUrl, modelInBody } from "../specs.ts";
import type { Target } from "../target.ts";

function authHeaders(t: Target): Record<string, string> {
  // A self-hosted server without a key (Ollama, vLLM) gets no credential header at all.
  if (t.credentials.type !== "api-key" || t.credentials.apiKey === "") return {};
  if (t.info.auth === "api-key-header") return { "api-key": t.credentials.apiKey };
  if (t.info.auth === "x-api-key") return { "x-api-key": t.credentials.apiKey };
  return { authorization: `Bearer ${t.credentials.apiKey}` };
}

function post(t: Target, operation: "chat/completions" | "embeddings" | "responses", body: Record<string, unknown>): UpstreamRequest {
  return {
    url: endpointUrl(t, operation),
    method: "POST",
    headers: { "content-type": "application/json", ...authHeaders(t) },
    body: providerBody(body, modelInBody(t)),
  };
}

const OTHER_NAME = { max_tokens: "max_completion_tokens", max_completion_tokens: "max_tokens" } as const;

/**
 * A chat body with its output limit under the one name the kind's chat API takes (its
 * spec's `chatMaxTokens`; the caller's own where the kind's servers differ). A caller, or a
 * translated Responses call, may write either, and a routed or fallback target may be a
 * reasoning model that refuses `max_tokens`, or a vendor that refuses or ignores
 * `max_completion_tokens` (and would answer past the limit the spend was held for). When
 * both are written, the value under the kind's name is kept. Copied only when renamed.
 */
function withLimitName(t: Target, body: Record<string, unknown>): Record<string, unknown> {
  const name = chatMaxTokensName(t);
  if (name === null) return body;
  const other = OTHER_NAME[name];
  if (body[other] === undefined || body[other] === null) return body;
  const { [other]: limit, ...rest } = body;
  return { ...rest, [name]: rest[name] ?? limit };
}

export const openAiCompatibleAdapter = {
  wire: "chat",
  request: (t, body) => post(t, "chat/completions", withLimitName(t, body)),
  embeddingsRequest: (t, body) => post(t, "embeddings", body),
  responsesRequest: (t, body) => post(t, "responses", body),
  modelsRequest: (t) => ({ url: endpointUrl(t, "models"), method: "GET", headers: authHeaders(t) }),
  parseModels(body) {
    const data = (body as { data?: unknown })?.data;
    return Array.isArray(data) ? data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === "string") : [];
  },
} satisfies ProviderAdapter & EmbeddingsCapable & ResponsesCapable & ModelListing;
