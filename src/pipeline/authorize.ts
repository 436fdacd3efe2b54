/**
 * Stage 5: may this call go to this provider? Its country must be authorized
 * (403 `provider_blocked`), and its kind must be in the organization's tier (403
 * `tier_limit_exceeded`). Checked on every call: policy and tiers change after a
 * provider was configured.
 */
import { ApiError } from "../lib/errors.ts";
import { isAuthorizedCountry } from "../policy/geography.ts";
import { providerKindRefusal } from "../policy/tiers.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import type { Target } from "../providers/target.ts";
import type { Identity } from "../services/identity.ts";

export function providerBlocked(name: string, country: string | null): ApiError {
  return new ApiError(403, "provider_blocked", `${name} runs in ${country ?? "an undeclared country"}, which is not an authorized provider country (the United States, NATO members and Major Non-NATO Allies).`, {
    details: { provider: name, country },
  });
}

/** Why this organization may not call this provider, or null when it may. */
export function providerRefusal(identity: Identity, p: { kind: ProviderKind; country: string | null; providerName: string }): ApiError | null {
  if (!isAuthorizedCountry(p.country)) return providerBlocked(p.providerName, p.country);
  return providerKindRefusal(identity.organization.tier, p.kind);
}

export function authorizeTarget(identity: Identity, target: Target): void {
  const refusal = providerRefusal(identity, target);
  if (refusal) throw refusal;
}
