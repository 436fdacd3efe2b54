/**
 * Prices a call's own size or its caller's choice moves: long-context bands (a prompt
 * over a threshold is priced at higher rates for the whole call) and service tiers
 * (OpenAI's `priority` and `flex`), as data beside the list prices (models.ts), in USD
 * per million tokens.
 *
 * Sources (checked 2026-11-28 against pages dated at or after PRICES_AS_OF, 2025-10-01):
 * - Anthropic, "Pricing" (long context, 1M-token context beta of Claude Sonnet 4 and
 *   4.5): a prompt over 200K input tokens is billed at $6 input and $22.50 output per
 *   million for the whole call; the prompt-cache multipliers (0.1x read, 1.25x and 2x
 *   writes) apply on top of the long-context input price. Bedrock and OpenRouter pass the
 *   same rates on for the same models.
 * - Google, "Gemini Developer API pricing": Gemini 2.5 Pro, prompts over 200K tokens,
 *   $2.50 input and $15 output per million. Its cache prices are not listed here
 *   (cache-prices.ts): above the band they are the band's input price.
 * - OpenAI, "Priority processing" (openai.com/api-priority-processing): per-model
 *   priority prices (input, cached input, output) below. OpenAI publishes no multiplier
 *   for models it does not list there.
 * OpenAI's flex prices could not be confirmed from a stored page and are left out: a
 * flex call is charged the standard price, which is above flex, so a cap is never passed
 * by it (an operator sets flex prices with GW_CATALOG `serviceTiers`).
 */

/** Rates for a call whose prompt tokens (cache reads and writes included) are above `aboveTokens`. */
export interface PriceBand {
  aboveTokens: number;
  inputPerMTok: number;
  outputPerMTok: number;
  cacheReadPerMTok?: number;
  cacheWritePerMTok?: number;
  cacheWriteLongPerMTok?: number;
}

/** A service tier's rates; a cache price left out is the tier's input price. */
export interface TierPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheReadPerMTok?: number;
}

/** Anthropic's Sonnet 4 / 4.5 long-context rates: 2x input, 1.5x output, cache multipliers on the band's input. */
const SONNET_LONG: PriceBand = {
  aboveTokens: 200_000,
  inputPerMTok: 6,
  outputPerMTok: 22.5,
  cacheReadPerMTok: 0.6,
  cacheWritePerMTok: 7.5,
  cacheWriteLongPerMTok: 12,
};

export const LONG_CONTEXT_BANDS: Readonly<Record<string, PriceBand>> = {
  "claude-sonnet-4-5": SONNET_LONG,
  "claude-sonnet-4-0": SONNET_LONG,
  "anthropic.claude-sonnet-4-5-20250929-v1:0": SONNET_LONG,
  "anthropic.claude-sonnet-4-20250514-v1:0": SONNET_LONG,
  "anthropic/claude-sonnet-4.5": SONNET_LONG,
  "gemini-2.5-pro": { aboveTokens: 200_000, inputPerMTok: 2.5, outputPerMTok: 15 },
};

/** Tier names the gateway prices; any other tier an answer names is charged the standard price. */
export const SERVICE_TIERS = ["priority", "flex"] as const;
export type ServiceTier = (typeof SERVICE_TIERS)[number];

export const TIER_PRICES: Readonly<Record<string, Partial<Record<ServiceTier, TierPrice>>>> = {
  "gpt-5": { priority: { inputPerMTok: 2.5, outputPerMTok: 20, cacheReadPerMTok: 0.25 } },
  "gpt-5-mini": { priority: { inputPerMTok: 0.45, outputPerMTok: 3.6, cacheReadPerMTok: 0.045 } },
  "gpt-4.1": { priority: { inputPerMTok: 3.5, outputPerMTok: 14, cacheReadPerMTok: 0.875 } },
};

/** The band and tier prices the built-in catalog lists for a model (own entries only: `constructor` is no model). */
export function builtInBandAndTiers(id: string): { longContext?: PriceBand; serviceTiers?: Partial<Record<ServiceTier, TierPrice>> } {
  return {
    ...(Object.hasOwn(LONG_CONTEXT_BANDS, id) ? { longContext: LONG_CONTEXT_BANDS[id] } : {}),
    ...(Object.hasOwn(TIER_PRICES, id) ? { serviceTiers: TIER_PRICES[id] } : {}),
  };
}
