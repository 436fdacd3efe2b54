/**
 * The OpenAI-compatible family: every chat-format kind (OpenAI, Google's and Cohere's
 * compatibility endpoints, Mistral, xAI, the inference hosts, self-hosted servers,
 * Azure OpenAI). Kinds differ only in address and authentication, which come from
 * the catalog and the configuration, so one adapter serves them all.
 */
import { type EmbeddingsCapable, type ModelListing, type ProviderAdapter, providerBody, type UpstreamRequest } from "../adapter.ts";
import type { Target } from "../target.ts";

/** The Azure OpenAI data-plane version used when the configuration does not name one. */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

function authHeaders(t: Target): Record<string, string> {
  // A self-hosted server without a key (Ollama, vLLM) gets no credential header at all.
  if (t.credentials.type !== "api-key" || t.credentials.apiKey === "") return {};
  if (t.info.auth === "api-key-header") return { "api-key": t.credentials.apiKey };
  if (t.info.auth === "x-api-key") return { "x-api-key": t.credentials.apiKey };
  return { authorization: `Bearer ${t.credentials.apiKey}` };
}

/** Azure addresses a deployment, not a model: `/openai/deployments/{deployment}/{op}?api-version=`. */
function url(t: Target, operation: "chat/completions" | "embeddings" | "models"): string {
  if (t.kind !== "azure-openai") return `${t.baseUrl}/${operation}`;
  const version = typeof t.settings.apiVersion === "string" ? t.settings.apiVersion : AZURE_DEFAULT_API_VERSION;
  if (operation === "models") return `${t.baseUrl}/openai/models?api-version=${encodeURIComponent(version)}`;
  const deployments = (t.settings.deployments ?? {}) as Record<string, string>;
  const deployment = deployments[t.model] ?? t.model;
  return `${t.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}/${operation}?api-version=${encodeURIComponent(version)}`;
}

function post(t: Target, operation: "chat/completions" | "embeddings", body: Record<string, unknown>): UpstreamRequest {
  return {
    url: url(t, operation),
    method: "POST",
    headers: { "content-type": "application/json", ...authHeaders(t) },
    body: providerBody(body, t.model),
  };
}

export const openAiCompatibleAdapter = {
  wire: "chat",
  request: (t, body) => post(t, "chat/completions", body),
  embeddingsRequest: (t, body) => post(t, "embeddings", body),
  modelsRequest: (t) => ({ url: url(t, "models"), method: "GET", headers: authHeaders(t) }),
  parseModels(body) {
    const data = (body as { data?: unknown })?.data;
    return Array.isArray(data) ? data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === "string") : [];
  },
} satisfies ProviderAdapter & EmbeddingsCapable & ModelListing;
