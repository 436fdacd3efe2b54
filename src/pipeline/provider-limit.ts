/**
 * A provider configuration's own limits (`limits` on provider.create): a call that
 * would pass one is refused here with 429 and the window's reset time, before the
 * provider's quota is spent. The router skips such a configuration before it gets
 * here; an explicit call to it, or the last candidate left, gets the refusal.
 */
import { ApiError } from "../lib/errors.ts";
import type { ProviderLimitCounter } from "../state/provider-limits.ts";
import type { ResolvedTarget } from "./authorize.ts";
import { type CallSize, estimatedPromptTokens } from "./reserve-spend.ts";

export interface ProviderLimitDeps {
  counter: ProviderLimitCounter;
  now: () => number;
}

export interface LimitTicket {
  /** The call's real token count once known (0 when it never reached the provider). */
  settle(actualTokens: number): void;
}

const LIMIT_WORDS = {
  requestsPerMinute: "requests per minute",
  tokensPerMinute: "tokens per minute",
  requestsPerDay: "requests per day",
} as const;

function hasLimits(target: ResolvedTarget): boolean {
  const l = target.limits;
  return l !== undefined && (l.requestsPerMinute !== undefined || l.tokensPerMinute !== undefined || l.requestsPerDay !== undefined);
}

/** Counts the call against its configuration's limits, or throws the 429 naming the limit and its reset. */
export function takeProviderLimit(deps: ProviderLimitDeps, target: ResolvedTarget, size: CallSize): LimitTicket | null {
  if (!target.configId || !hasLimits(target)) return null;
  // Only configurations with a token limit pay for the tokenizer here.
  const tokens =
    target.limits!.tokensPerMinute !== undefined ? estimatedPromptTokens(size) + (size.maxTokens ?? 0) * (size.choices ?? 1) : 0;
  const d = deps.counter.take(target.configId, target.limits!, tokens);
  if (d.ok) return d;
  const resetAt = new Date(d.resetAtMs).toISOString();
  const retryAfter = Math.max(1, Math.ceil((d.resetAtMs - deps.now()) / 1000));
  throw new ApiError(
    429,
    "rate_limit_exceeded",
    `${target.providerName} is at its configured limit of ${d.max} ${LIMIT_WORDS[d.limit]}; it resets at ${resetAt}.`,
    {
      details: { provider: target.providerName, limit: d.limit, max: d.max, resetAt },
      headers: { "retry-after": String(retryAfter) },
    },
  );
}
