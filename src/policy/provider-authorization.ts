/**
 * May an organization call a provider? Its country must be authorized (geography.ts)
 * and its kind must be in the organization's tier (tiers.ts). The answer depends only
 * on the provider (kind, country) and the tier, so it is worked out once per
 * configured provider, for every tier, when an organization's providers are loaded
 * (state/provider-directory.ts); the request path then only looks it up. An
 * organization whose providers change is loaded again, and so is every organization
 * after a restart, which is when the country table or the catalog can change.
 */
import type { ProviderConfigRecord, Tier } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import { isAuthorizedCountry } from "./geography.ts";
import { providerKindRefusal, TIERS } from "./tiers.ts";

/** What a verdict depends on: the provider's kind and country; its name only words the refusal. */
export interface AuthorizationSubject {
  kind: ProviderKind;
  country: string | null;
  providerName: string;
}

/** The refusal each tier would get (null: allowed). */
export type TierVerdicts = Readonly<Record<Tier, ApiError | null>>;

const ALL_TIERS = Object.keys(TIERS) as Tier[];

export function providerBlocked(name: string, country: string | null): ApiError {
  return new ApiError(
    403,
    "provider_blocked",
    `${name} runs in ${country ?? "an undeclared country"}, which is not an authorized provider country (the United States, NATO members and Major Non-NATO Allies).`,
    {
      details: { provider: name, country },
    },
  );
}

/** Works out the answer: geography first (it refuses whatever the tier), then the tier. */
export function refusalFor(tier: Tier, p: AuthorizationSubject): ApiError | null {
  if (!isAuthorizedCountry(p.country)) return providerBlocked(p.providerName, p.country);
  return providerKindRefusal(tier, p.kind);
}

export function verdictsFor(p: AuthorizationSubject): TierVerdicts {
  return Object.fromEntries(ALL_TIERS.map((tier) => [tier, refusalFor(tier, p)])) as Record<Tier, ApiError | null>;
}

/**
 * Where a configured provider runs: a vendor's country is the catalog's (the vendor
 * does not choose it per configuration); self-hosted and custom declare their own.
 * Resolution and the model list use the same rule.
 */
export function providerCountry(catalog: Catalog, kind: ProviderKind, record: ProviderConfigRecord): string | null {
  return catalog.kind(kind).country ?? record.country;
}

/** The verdicts for one configured provider, as the directory stores them beside it. */
export function configuredProviderVerdicts(catalog: Catalog, kind: ProviderKind, record: ProviderConfigRecord): TierVerdicts {
  return verdictsFor({ kind, country: providerCountry(catalog, kind, record), providerName: record.name });
}
