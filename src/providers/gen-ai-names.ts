/**
 * The OpenTelemetry GenAI conventions' names for the providers (`gen_ai.provider.name`),
 * where the conventions list one; other kinds are named by their own kind, and the
 * sandbox by "sandbox". One table, so spans and metrics name a provider the same way.
 */
import type { ProviderKind } from "./catalog/provider-kinds.ts";

const CONVENTION_NAMES: Partial<Record<ProviderKind, string>> = {
  openai: "openai",
  anthropic: "anthropic",
  google: "gcp.gemini",
  mistral: "mistral_ai",
  cohere: "cohere",
  xai: "x_ai",
  deepseek: "deepseek",
  groq: "groq",
  perplexity: "perplexity",
  bedrock: "aws.bedrock",
  "azure-openai": "azure.ai.openai",
};

export function genAiProviderName(kind: ProviderKind, simulated = false): string {
  return simulated ? "sandbox" : (CONVENTION_NAMES[kind] ?? kind);
}
