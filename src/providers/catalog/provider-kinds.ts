/**
 * Provider kinds: the one table that knows each vendor's default address, home
 * country, wire format and authentication. Everything else asks this table.
 */
import type { ProviderFormat } from "../../domain/types.ts";

export const PROVIDER_KINDS = [
  "openai",
  "anthropic",
  "google",
  "mistral",
  "cohere",
  "xai",
  "ai21",
  "deepseek",
  "groq",
  "together",
  "fireworks",
  "openrouter",
  "perplexity",
  "azure-openai",
  "bedrock",
  "self-hosted",
  "custom",
] as const;

export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** How the provider key travels: `Authorization: Bearer`, `x-api-key`, Azure's `api-key`, or AWS (SigV4 or a Bedrock API key as bearer). */
export type AuthStyle = "bearer" | "x-api-key" | "api-key-header" | "aws";

export interface ProviderKindInfo {
  kind: ProviderKind;
  displayName: string;
  /** The SDK-style base URL: openai-format kinds end in their API version path; the messages vendor is the bare origin. */
  defaultBaseUrl: string | null;
  /** ISO 3166 alpha-2 of the vendor's home; null where the operator must declare it. */
  country: string | null;
  format: ProviderFormat;
  auth: AuthStyle;
  /** A configuration must give `baseUrl` (no public default). */
  needsBaseUrl: boolean;
  /** Model ids of this vendor's families, so a model newer than the catalog still reaches its vendor. */
  modelPatterns: RegExp[];
  /** The vendor has an embeddings API. */
  embeddings: boolean;
  /**
   * The vendor's chat-completions API reference documents `reasoning_effort`, so a translated
   * Responses call's `reasoning.effort` is sent there; elsewhere it is dropped (a vendor that
   * refuses unknown fields would fail the call). Checked per vendor: docs/decisions.md.
   */
  chatReasoningEffort: boolean;
}

const info = (kind: ProviderKind, p: Omit<ProviderKindInfo, "kind">): ProviderKindInfo => ({ kind, ...p });

export const PROVIDER_KINDS_INFO = {
  openai: info("openai", {
    displayName: "OpenAI",
    defaultBaseUrl: "https://api.openai.com/v1",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^(gpt-|o[1-9]|chatgpt-|text-embedding-|omni-moderation)/],
    embeddings: true,
    chatReasoningEffort: true,
  }),
  anthropic: info("anthropic", {
    displayName: "Anthropic",
    defaultBaseUrl: "https://api.anthropic.com",
    country: "US",
    format: "messages",
    auth: "x-api-key",
    needsBaseUrl: false,
    modelPatterns: [/^claude-/],
    embeddings: false,
    chatReasoningEffort: false,
  }),
  google: info("google", {
    displayName: "Google Gemini",
    defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^(gemini-|gemma-|text-embedding-00|gemini-embedding)/],
    embeddings: true,
    chatReasoningEffort: true,
  }),
  mistral: info("mistral", {
    displayName: "Mistral AI",
    defaultBaseUrl: "https://api.mistral.ai/v1",
    country: "FR",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^(mistral-|mixtral-|codestral|pixtral|ministral|open-mistral|magistral)/],
    embeddings: true,
    chatReasoningEffort: true,
  }),
  cohere: info("cohere", {
    displayName: "Cohere",
    defaultBaseUrl: "https://api.cohere.ai/compatibility/v1",
    country: "CA",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^(command|embed-)/],
    embeddings: true,
    chatReasoningEffort: false,
  }),
  xai: info("xai", {
    displayName: "xAI",
    defaultBaseUrl: "https://api.x.ai/v1",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^grok-/],
    embeddings: false,
    chatReasoningEffort: true,
  }),
  ai21: info("ai21", {
    displayName: "AI21 Labs",
    defaultBaseUrl: "https://api.ai21.com/studio/v1",
    country: "IL",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^jamba/],
    embeddings: false,
    chatReasoningEffort: false,
  }),
  deepseek: info("deepseek", {
    displayName: "DeepSeek",
    defaultBaseUrl: "https://api.deepseek.com/v1",
    country: "CN",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^deepseek-/],
    embeddings: false,
    chatReasoningEffort: false,
  }),
  groq: info("groq", {
    displayName: "Groq",
    defaultBaseUrl: "https://api.groq.com/openai/v1",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [],
    embeddings: false,
    chatReasoningEffort: true,
  }),
  together: info("together", {
    displayName: "Together AI",
    defaultBaseUrl: "https://api.together.xyz/v1",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [],
    embeddings: true,
    chatReasoningEffort: false,
  }),
  fireworks: info("fireworks", {
    displayName: "Fireworks AI",
    defaultBaseUrl: "https://api.fireworks.ai/inference/v1",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^accounts\/fireworks\//],
    embeddings: true,
    chatReasoningEffort: true,
  }),
  openrouter: info("openrouter", {
    displayName: "OpenRouter",
    defaultBaseUrl: "https://openrouter.ai/api/v1",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [],
    embeddings: false,
    chatReasoningEffort: true,
  }),
  perplexity: info("perplexity", {
    displayName: "Perplexity",
    defaultBaseUrl: "https://api.perplexity.ai",
    country: "US",
    format: "chat",
    auth: "bearer",
    needsBaseUrl: false,
    modelPatterns: [/^sonar/],
    embeddings: false,
    chatReasoningEffort: false,
  }),
  "azure-openai": info("azure-openai", {
    displayName: "Azure OpenAI",
    defaultBaseUrl: null,
    country: "US",
    format: "chat",
    auth: "api-key-header",
    needsBaseUrl: true,
    modelPatterns: [],
    embeddings: true,
    chatReasoningEffort: true,
  }),
  bedrock: info("bedrock", {
    displayName: "Amazon Bedrock",
    defaultBaseUrl: null,
    country: "US",
    format: "bedrock",
    auth: "aws",
    needsBaseUrl: false,
    modelPatterns: [/^anthropic\./],
    embeddings: false,
    chatReasoningEffort: false,
  }),
  "self-hosted": info("self-hosted", {
    displayName: "Self-hosted",
    defaultBaseUrl: null,
    country: null,
    format: "chat",
    auth: "bearer",
    needsBaseUrl: true,
    modelPatterns: [],
    embeddings: true,
    chatReasoningEffort: false,
  }),
  custom: info("custom", {
    displayName: "Custom API",
    defaultBaseUrl: null,
    country: null,
    format: "chat",
    auth: "bearer",
    needsBaseUrl: true,
    modelPatterns: [],
    embeddings: true,
    chatReasoningEffort: false,
  }),
} satisfies Record<ProviderKind, ProviderKindInfo>;

export function isProviderKind(value: string): value is ProviderKind {
  return Object.hasOwn(PROVIDER_KINDS_INFO, value);
}
