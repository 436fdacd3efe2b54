/**
 * Prompt-cache prices, as data beside the list prices (models.ts) and taken from the
 * same vendors' price pages on the same date (PRICES_AS_OF): what a token read from a
 * vendor's prompt cache costs, and what one written to it costs (for the short and the
 * long lifetime), in USD per million tokens. A vendor that prices every model by one
 * rule is a family multiplier of the input price; one that lists a price per model is
 * a row. A model in neither prices its cache tokens at its input price (catalog.ts).
 *
 * Sources (2025-10-01):
 * - Anthropic, "Pricing" and "Prompt caching": cache reads 0.1x the base input price,
 *   5-minute cache writes 1.25x, 1-hour cache writes 2x, for every model. Bedrock prices
 *   the `anthropic.*` models it serves by the same rule.
 * - OpenAI, "Pricing" (the "Cached input" column): reads per model below; no write premium.
 * - DeepSeek, "Models & Pricing": "input (cache hit)" per model; no write premium.
 * - xAI, "Models and pricing": "cached input" per model; no write premium.
 * - OpenRouter passes its upstream vendors' cache prices on: its rows repeat them.
 * Google's Gemini cache prices changed around the list prices' date and are not listed:
 * its cache reads are priced at the input price until an operator sets them (GW_CATALOG).
 */
import type { ProviderKind } from "./provider-kinds.ts";

/** What a model's cache tokens cost, USD per million tokens; a price left out is the input price. */
export interface CachePrices {
  cacheReadPerMTok?: number;
  /** A write for the vendor's default (short, 5-minute) lifetime. */
  cacheWritePerMTok?: number;
  /** A write for the long (1-hour) lifetime, where a vendor sells one. */
  cacheWriteLongPerMTok?: number;
}

/** Vendors that price every model's cache tokens as multiples of its input price. */
const CACHE_MULTIPLIERS: Partial<Record<ProviderKind, { read: number; write: number; writeLong: number }>> = {
  anthropic: { read: 0.1, write: 1.25, writeLong: 2 },
  bedrock: { read: 0.1, write: 1.25, writeLong: 2 },
};

/** Vendors that list a cache-read price per model, USD per million tokens; their writes cost the input price. */
const CACHE_READS: Readonly<Record<string, number>> = {
  // OpenAI: cached input.
  "gpt-4o": 1.25,
  "gpt-4o-mini": 0.075,
  "gpt-4.1": 0.5,
  "gpt-4.1-mini": 0.1,
  "gpt-4.1-nano": 0.025,
  "gpt-5": 0.125,
  "gpt-5-mini": 0.025,
  "gpt-5-nano": 0.005,
  o1: 7.5,
  o3: 0.5,
  "o3-mini": 0.55,
  "o4-mini": 0.275,
  // DeepSeek: input on a cache hit.
  "deepseek-chat": 0.07,
  "deepseek-reasoner": 0.14,
  // xAI: cached input.
  "grok-4": 0.75,
  "grok-3": 0.75,
  "grok-3-mini": 0.075,
  // OpenRouter: the upstream vendor's prices.
  "openai/gpt-4o": 1.25,
};

/** Models listed with their cache-write prices too. */
const CACHE_PRICES: Readonly<Record<string, CachePrices>> = {
  // OpenRouter: the upstream vendor's prices.
  "anthropic/claude-sonnet-4.5": { cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75, cacheWriteLongPerMTok: 6 },
};

/** A multiple of a price in USD per million tokens, without the float's tail (3 x 0.1 is 0.3, not 0.30000000000000004). */
const times = (price: number, factor: number): number => Math.round(price * factor * 1e9) / 1e9;

/** The cache prices the built-in catalog lists for a model, by its own row or its vendor's rule. */
export function builtInCachePrices(id: string, provider: ProviderKind, inputPerMTok: number): CachePrices {
  // By own entry: a model named `constructor` must not read Object's function as its prices.
  if (Object.hasOwn(CACHE_PRICES, id)) return CACHE_PRICES[id] as CachePrices;
  if (Object.hasOwn(CACHE_READS, id)) return { cacheReadPerMTok: CACHE_READS[id] };
  return ruleCachePrices(provider, inputPerMTok);
}

/** The cache prices a vendor's one rule gives a model of that input price; none for a vendor without a rule. */
export function ruleCachePrices(provider: ProviderKind, inputPerMTok: number): CachePrices {
  const rule = CACHE_MULTIPLIERS[provider];
  if (!rule) return {};
  return {
    cacheReadPerMTok: times(inputPerMTok, rule.read),
    cacheWritePerMTok: times(inputPerMTok, rule.write),
    cacheWriteLongPerMTok: times(inputPerMTok, rule.writeLong),
  };
}
