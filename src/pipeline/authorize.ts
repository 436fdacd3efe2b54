/**
 * Stage 5: may this call go to this provider? Its country must be authorized
 * (403 `provider_blocked`), and its kind must be in the organization's tier (403
 * `tier_limit_exceeded`). Checked on every call, since policy and tiers change after
 * a provider was configured; but for a configured provider the answer was worked out
 * when the organization's providers were loaded (policy/provider-authorization.ts),
 * so the check here is a lookup by the caller's current tier. A per-request key has
 * no configuration to precompute for, and is worked out here.
 */
import type { ApiError } from "../lib/errors.ts";
import { type AuthorizationSubject, refusalFor, type TierVerdicts } from "../policy/provider-authorization.ts";
import type { Target } from "../providers/target.ts";
import type { Identity } from "../domain/identity.ts";
import type { ProviderLimits } from "../domain/types.ts";

/**
 * A target as resolution hands it over: with the configured provider's precomputed
 * verdicts, when it has one. (Targets built elsewhere, such as in benchmarks, carry none.)
 */
export type ResolvedTarget = Target & { authorization?: TierVerdicts; limits?: ProviderLimits };

/** Why this organization may not call this provider, or null when it may (worked out now). */
export function providerRefusal(identity: Identity, p: AuthorizationSubject): ApiError | null {
  return refusalFor(identity.organization.tier, p);
}

export function authorizeTarget(identity: Identity, target: ResolvedTarget): void {
  const refusal = target.authorization ? target.authorization[identity.organization.tier] : providerRefusal(identity, target);
  if (refusal) throw refusal;
}
