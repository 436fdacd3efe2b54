/**
 * The built-in model catalog: list prices in USD per million tokens, context sizes,
 * capabilities, a quality score (0-100, for routing) and a latency prior (ms to a
 * typical answer, replaced by measurements once calls are seen). Prompt-cache prices
 * are data of their own (cache-prices.ts). Prices change: GW_CATALOG overrides or
 * extends any entry at start.
 */
import { builtInCachePrices, type CachePrices } from "./cache-prices.ts";
import { builtInBandAndTiers, type PriceBand, type ServiceTier, type TierPrice } from "./price-bands.ts";
import type { ProviderKind } from "./provider-kinds.ts";

/** The date the list prices below were taken from the vendors' published price pages. */
export const PRICES_AS_OF = "2025-10-01";

export interface ModelCapabilities {
  tools: boolean;
  vision: boolean;
  json: boolean;
  embeddings: boolean;
}

/** A model as listed; its cache prices, where left out, are its input price. */
export interface CatalogModel extends CachePrices {
  id: string;
  provider: ProviderKind;
  inputPerMTok: number;
  outputPerMTok: number;
  contextWindow: number;
  maxOutputTokens: number;
  capabilities: ModelCapabilities;
  quality: number;
  latencyMs: number;
  /** Unix seconds, approximate release; the `created` of /v1/models. */
  created: number;
  /** Higher rates for a call whose prompt is above a threshold (price-bands.ts). */
  longContext?: PriceBand;
  /** Prices of the service tiers a caller may ask for; a tier left out is charged the standard price. */
  serviceTiers?: Partial<Record<ServiceTier, TierPrice>>;
}

/** Capabilities as letters: t tools, v vision, j JSON mode, e embeddings. */
function caps(letters: string): ModelCapabilities {
  return { tools: letters.includes("t"), vision: letters.includes("v"), json: letters.includes("j"), embeddings: letters.includes("e") };
}

type Row = [
  id: string,
  provider: ProviderKind,
  input: number,
  output: number,
  context: number,
  maxOut: number,
  caps: string,
  quality: number,
  latencyMs: number,
  released: string,
];

const ROWS: Row[] = [
  // OpenAI
  ["gpt-4o", "openai", 2.5, 10, 128_000, 16_384, "tvj", 84, 900, "2024-05-13"],
  ["gpt-4o-mini", "openai", 0.15, 0.6, 128_000, 16_384, "tvj", 74, 600, "2024-07-18"],
  ["gpt-4.1", "openai", 2, 8, 1_047_576, 32_768, "tvj", 87, 900, "2025-04-14"],
  ["gpt-4.1-mini", "openai", 0.4, 1.6, 1_047_576, 32_768, "tvj", 80, 600, "2025-04-14"],
  ["gpt-4.1-nano", "openai", 0.1, 0.4, 1_047_576, 32_768, "tvj", 70, 400, "2025-04-14"],
  ["gpt-5", "openai", 1.25, 10, 400_000, 128_000, "tvj", 93, 2500, "2025-08-07"],
  ["gpt-5-mini", "openai", 0.25, 2, 400_000, 128_000, "tvj", 86, 1500, "2025-08-07"],
  ["gpt-5-nano", "openai", 0.05, 0.4, 400_000, 128_000, "tvj", 76, 1000, "2025-08-07"],
  ["o1", "openai", 15, 60, 200_000, 100_000, "tvj", 90, 8000, "2024-12-17"],
  ["o3", "openai", 2, 8, 200_000, 100_000, "tvj", 92, 6000, "2025-04-16"],
  ["o3-mini", "openai", 1.1, 4.4, 200_000, 100_000, "tj", 85, 4000, "2025-01-31"],
  ["o4-mini", "openai", 1.1, 4.4, 200_000, 100_000, "tvj", 88, 4000, "2025-04-16"],
  ["text-embedding-3-small", "openai", 0.02, 0, 8_191, 0, "e", 70, 150, "2024-01-25"],
  ["text-embedding-3-large", "openai", 0.13, 0, 8_191, 0, "e", 80, 200, "2024-01-25"],
  ["text-embedding-ada-002", "openai", 0.1, 0, 8_191, 0, "e", 60, 150, "2022-12-15"],
  // Anthropic (messages format)
  ["claude-opus-4-1", "anthropic", 15, 75, 200_000, 32_000, "tvj", 94, 3000, "2025-08-05"],
  ["claude-opus-4-0", "anthropic", 15, 75, 200_000, 32_000, "tvj", 92, 3000, "2025-05-22"],
  ["claude-sonnet-4-5", "anthropic", 3, 15, 200_000, 64_000, "tvj", 93, 1500, "2025-09-29"],
  ["claude-sonnet-4-0", "anthropic", 3, 15, 200_000, 64_000, "tvj", 89, 1500, "2025-05-22"],
  ["claude-3-7-sonnet-latest", "anthropic", 3, 15, 200_000, 64_000, "tvj", 86, 1500, "2025-02-24"],
  ["claude-haiku-4-5", "anthropic", 1, 5, 200_000, 64_000, "tvj", 85, 700, "2025-10-15"],
  ["claude-3-5-haiku-latest", "anthropic", 0.8, 4, 200_000, 8_192, "tj", 75, 700, "2024-10-22"],
  // Amazon Bedrock (anthropic.* ids, messages format)
  ["anthropic.claude-sonnet-4-5-20250929-v1:0", "bedrock", 3, 15, 200_000, 64_000, "tvj", 93, 1700, "2025-09-29"],
  ["anthropic.claude-sonnet-4-20250514-v1:0", "bedrock", 3, 15, 200_000, 64_000, "tvj", 89, 1700, "2025-05-22"],
  ["anthropic.claude-opus-4-1-20250805-v1:0", "bedrock", 15, 75, 200_000, 32_000, "tvj", 94, 3200, "2025-08-05"],
  ["anthropic.claude-3-7-sonnet-20250219-v1:0", "bedrock", 3, 15, 200_000, 64_000, "tvj", 86, 1700, "2025-02-24"],
  ["anthropic.claude-3-5-sonnet-20241022-v2:0", "bedrock", 3, 15, 200_000, 8_192, "tvj", 84, 1700, "2024-10-22"],
  ["anthropic.claude-3-5-haiku-20241022-v1:0", "bedrock", 0.8, 4, 200_000, 8_192, "tj", 75, 800, "2024-10-22"],
  ["anthropic.claude-haiku-4-5-20251001-v1:0", "bedrock", 1, 5, 200_000, 64_000, "tvj", 85, 800, "2025-10-15"],
  // Google
  ["gemini-2.5-pro", "google", 1.25, 10, 1_048_576, 65_536, "tvj", 91, 3000, "2025-06-17"],
  ["gemini-2.5-flash", "google", 0.3, 2.5, 1_048_576, 65_536, "tvj", 84, 1000, "2025-06-17"],
  ["gemini-2.5-flash-lite", "google", 0.1, 0.4, 1_048_576, 65_536, "tvj", 75, 500, "2025-07-22"],
  ["gemini-2.0-flash", "google", 0.1, 0.4, 1_048_576, 8_192, "tvj", 76, 600, "2025-02-05"],
  ["text-embedding-004", "google", 0.0, 0, 2_048, 0, "e", 72, 150, "2024-05-14"],
  ["gemini-embedding-001", "google", 0.15, 0, 2_048, 0, "e", 82, 200, "2025-07-14"],
  // Mistral
  ["mistral-large-latest", "mistral", 2, 6, 128_000, 8_192, "tj", 82, 1200, "2024-11-18"],
  ["mistral-medium-latest", "mistral", 0.4, 2, 128_000, 8_192, "tvj", 80, 900, "2025-05-07"],
  ["mistral-small-latest", "mistral", 0.1, 0.3, 128_000, 8_192, "tvj", 72, 500, "2025-03-17"],
  ["codestral-latest", "mistral", 0.3, 0.9, 256_000, 8_192, "tj", 78, 500, "2025-01-13"],
  ["mistral-embed", "mistral", 0.1, 0, 8_192, 0, "e", 70, 150, "2023-12-11"],
  // Cohere (compatibility API)
  ["command-a-03-2025", "cohere", 2.5, 10, 256_000, 8_000, "tj", 82, 1200, "2025-03-13"],
  ["command-r-plus-08-2024", "cohere", 2.5, 10, 128_000, 4_000, "tj", 78, 1200, "2024-08-30"],
  ["command-r-08-2024", "cohere", 0.15, 0.6, 128_000, 4_000, "tj", 70, 700, "2024-08-30"],
  ["embed-english-v3.0", "cohere", 0.1, 0, 512, 0, "e", 72, 150, "2023-11-02"],
  // xAI
  ["grok-4", "xai", 3, 15, 256_000, 64_000, "tvj", 92, 3000, "2025-07-09"],
  ["grok-3", "xai", 3, 15, 131_072, 16_384, "tj", 86, 1500, "2025-04-03"],
  ["grok-3-mini", "xai", 0.3, 0.5, 131_072, 16_384, "tj", 78, 1000, "2025-04-03"],
  // AI21
  ["jamba-large", "ai21", 2, 8, 256_000, 4_096, "tj", 76, 1200, "2025-03-06"],
  ["jamba-mini", "ai21", 0.2, 0.4, 256_000, 4_096, "tj", 66, 600, "2025-03-06"],
  // DeepSeek
  ["deepseek-chat", "deepseek", 0.27, 1.1, 128_000, 8_192, "tj", 84, 1500, "2024-12-26"],
  ["deepseek-reasoner", "deepseek", 0.55, 2.19, 128_000, 64_000, "j", 88, 6000, "2025-01-20"],
  // Inference hosts
  ["llama-3.3-70b-versatile", "groq", 0.59, 0.79, 131_072, 32_768, "tj", 78, 300, "2024-12-06"],
  ["llama-3.1-8b-instant", "groq", 0.05, 0.08, 131_072, 8_192, "tj", 62, 150, "2024-07-23"],
  ["meta-llama/Llama-3.3-70B-Instruct-Turbo", "together", 0.88, 0.88, 131_072, 8_192, "tj", 78, 600, "2024-12-06"],
  ["meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo", "together", 0.18, 0.18, 131_072, 8_192, "tj", 62, 300, "2024-07-23"],
  ["accounts/fireworks/models/llama-v3p1-70b-instruct", "fireworks", 0.9, 0.9, 131_072, 16_384, "tj", 76, 600, "2024-07-23"],
  ["accounts/fireworks/models/llama-v3p3-70b-instruct", "fireworks", 0.9, 0.9, 131_072, 16_384, "tj", 78, 600, "2024-12-06"],
  // Multi-model host (ids carry the upstream vendor)
  ["openai/gpt-4o", "openrouter", 2.5, 10, 128_000, 16_384, "tvj", 84, 1000, "2024-05-13"],
  ["anthropic/claude-sonnet-4.5", "openrouter", 3, 15, 200_000, 64_000, "tvj", 93, 1700, "2025-09-29"],
  ["meta-llama/llama-3.3-70b-instruct", "openrouter", 0.13, 0.4, 131_072, 16_384, "tj", 78, 800, "2024-12-06"],
  // Perplexity
  ["sonar", "perplexity", 1, 1, 127_072, 8_192, "j", 72, 1500, "2025-01-21"],
  ["sonar-pro", "perplexity", 3, 15, 200_000, 8_192, "j", 80, 2500, "2025-01-21"],
];

export const BUILT_IN_MODELS: CatalogModel[] = ROWS.map(
  ([id, provider, inputPerMTok, outputPerMTok, contextWindow, maxOutputTokens, letters, quality, latencyMs, released]) => ({
    id,
    provider,
    inputPerMTok,
    outputPerMTok,
    contextWindow,
    maxOutputTokens,
    capabilities: caps(letters),
    quality,
    latencyMs,
    created: Math.floor(Date.parse(`${released}T00:00:00Z`) / 1000),
    ...builtInCachePrices(id, provider, inputPerMTok),
    ...builtInBandAndTiers(id),
  }),
);
