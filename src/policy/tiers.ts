/**
 * What each tier includes. Security scanning and routing are on every tier, as the
 * specification says; the other lines are this gateway's choice (docs/policy.md, "Tiers").
 * A feature outside the caller's tier is 403 `tier_limit_exceeded`.
 */
import type { Tier } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import { specFor } from "../providers/specs.ts";

export interface TierFeatures {
  securityScanning: true;
  routing: true;
  /** Provider configurations per organization. */
  maxProviders: number;
  /** The kinds whose spec has the `own-models` tier class (self-hosted, custom). */
  ownModels: boolean;
  /** The kinds whose spec has the `cloud-platform` tier class (bedrock, azure-openai). */
  cloudPlatforms: boolean;
  /** `org.audit-log.list`. */
  auditLog: boolean;
}

export const TIERS: Record<Tier, TierFeatures> = {
  starter: { securityScanning: true, routing: true, maxProviders: 5, ownModels: false, cloudPlatforms: false, auditLog: false },
  professional: { securityScanning: true, routing: true, maxProviders: 25, ownModels: true, cloudPlatforms: true, auditLog: true },
  enterprise: {
    securityScanning: true,
    routing: true,
    maxProviders: Number.POSITIVE_INFINITY,
    ownModels: true,
    cloudPlatforms: true,
    auditLog: true,
  },
};

function refuse(tier: Tier, what: string, needed: Tier): ApiError {
  return new ApiError(403, "tier_limit_exceeded", `${what} needs the ${needed} tier or above; this organization is on ${tier}.`, {
    details: { tier, requiredTier: needed },
  });
}

/** The 403 when the organization's tier does not include this provider kind, else null. */
export function providerKindRefusal(tier: Tier, kind: ProviderKind): ApiError | null {
  const f = TIERS[tier];
  const tierClass = specFor(kind).tierClass;
  if (tierClass === "own-models" && !f.ownModels) return refuse(tier, `A ${kind} provider`, "professional");
  if (tierClass === "cloud-platform" && !f.cloudPlatforms) return refuse(tier, `The ${kind} platform`, "professional");
  return null;
}

export function checkProviderKindAllowed(tier: Tier, kind: ProviderKind): void {
  const refusal = providerKindRefusal(tier, kind);
  if (refusal) throw refusal;
}

export function checkProviderCount(tier: Tier, existing: number): void {
  if (existing >= TIERS[tier].maxProviders)
    throw refuse(tier, `More than ${TIERS[tier].maxProviders} providers`, tier === "starter" ? "professional" : "enterprise");
}

export function checkAuditLogAllowed(tier: Tier): void {
  if (!TIERS[tier].auditLog) throw refuse(tier, "The audit log", "professional");
}
