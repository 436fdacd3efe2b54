/**
 * Stage 3: the request-rate limit. One bucket per API key, per signed-in user, or per
 * client address for callers not yet authenticated (so guessing keys is throttled
 * too). The decision is kept on the request scope: every response reports it.
 */
import { ApiError } from "../lib/errors.ts";
import type { Identity } from "../domain/identity.ts";
import type { RateDecision, RateLimiter } from "../state/rate-limiter.ts";
import type { DeferredCharge } from "../state/rate-charge.ts";

export function bucketForIdentity(identity: Identity): string {
  return identity.kind === "serviceAccount" ? `key:${identity.key.id}` : `user:${identity.id}`;
}

export function bucketForAddress(ip: string): string {
  return `ip:${ip}`;
}

export function rateLimited(decision: RateDecision): ApiError {
  return new ApiError(
    429,
    "rate_limit_exceeded",
    `Rate limit of ${decision.limit} requests exceeded; retry in ${decision.retryAfterS} s.`,
    {
      details: { limit: decision.limit, remaining: 0, resetAt: new Date(decision.resetAtS * 1000).toISOString() },
      headers: { "retry-after": String(decision.retryAfterS) },
    },
  );
}

/** Reports a decision, and throws 429 when it refused. */
function settle(decision: RateDecision, onDecision: (d: RateDecision) => void): void {
  onDecision(decision);
  if (!decision.allowed) throw rateLimited(decision);
}

/**
 * Takes one token for the request whose decision `holder.rate` keeps, throwing 429 when
 * the bucket is empty; at once when the limiter answers at once, with no closure built.
 */
export function takeToken(limiter: RateLimiter, bucket: string, holder: { rate: RateDecision | null }): void | Promise<void> {
  const decision = limiter.take(bucket);
  if (decision instanceof Promise) return decision.then((d) => keep(d, holder));
  keep(decision, holder);
}

/** Keeps a decision on its request, and throws 429 when it refused. */
function keep(decision: RateDecision, holder: { rate: RateDecision | null }): void {
  holder.rate = decision;
  if (!decision.allowed) throw rateLimited(decision);
}

/**
 * Decides a charge held back for the reservation to carry (rate-charge.ts): taken alone
 * if nothing carried it. Reports the decision, or throws 429 as `takeToken` does.
 */
export function decideCharge(charge: DeferredCharge, onDecision: (d: RateDecision) => void = () => {}): Promise<void> {
  return charge.decision().then((d) => settle(d, onDecision));
}
