/**
 * Preferences: organization-wide ones (budget, PII action, alert webhook, default
 * routing strategy) that only admins change, and personal ones of the caller.
 * `user.preferences` reads and writes both as one flat object.
 */
import {
  DEFAULT_ORG_PREFERENCES,
  DEFAULT_PERSONAL_PREFERENCES,
  type OrgPreferences,
  type PersonalPreferences,
  type ScanPolicy,
} from "../domain/types.ts";
import { patchScanPolicy, scanPolicyOf } from "../domain/scan-policy.ts";
import { checkEgressUrl } from "../lib/egress/egress-policy.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import { refuseTakenDomains } from "./sign-in-domains.ts";
import { isRoutedName, NAME_FALLBACK_MODELS, routedNameRefused } from "./routed-names.ts";
import { type Actor, type Identity } from "../domain/identity.ts";

export type Preferences = OrgPreferences & PersonalPreferences;
/** `security` may be given in part: the categories named change, the others stay. */
export type PreferencePatch = Partial<Omit<Preferences, "security">> & { security?: Partial<ScanPolicy> };

const ORG_KEYS = Object.keys(DEFAULT_ORG_PREFERENCES) as (keyof OrgPreferences)[];
const PERSONAL_KEYS = Object.keys(DEFAULT_PERSONAL_PREFERENCES) as (keyof PersonalPreferences)[];

function pick<T extends object>(from: object, keys: (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (k in from) (out as Record<string, unknown>)[k as string] = (from as Record<string, unknown>)[k as string];
  return out;
}

export async function readPreferences(deps: ServiceDeps, identity: Identity): Promise<Preferences> {
  const [org, personal] = await Promise.all([
    deps.store.getOrgPreferences(identity.organization.id),
    deps.store.getPersonalPreferences(identity.id),
  ]);
  return { ...org, security: scanPolicyOf(org), ...personal };
}

export async function updatePreferences(deps: ServiceDeps, identity: Identity, actor: Actor, patch: PreferencePatch): Promise<Preferences> {
  const orgPatch = pick<OrgPreferences>(patch, ORG_KEYS);
  const personalPatch = pick<PersonalPreferences>(patch, PERSONAL_KEYS);
  const orgId = identity.organization.id;
  if (Object.keys(orgPatch).length > 0) {
    if (identity.role !== "admin") {
      await recordAudit(
        deps.store,
        orgId,
        actor,
        "access.denied",
        "preferences",
        { operation: "user.preferences", keys: Object.keys(orgPatch) },
        deps.now(),
      );
      throw new ApiError(403, "forbidden", `only organization admins may change ${Object.keys(orgPatch).join(", ")}`);
    }
    await checkWebhookAddress(orgPatch.alertWebhookUrl);
    if (orgPatch.fallbackModels) refuseRoutedFallbacks(orgPatch.fallbackModels);
    const current = await deps.store.getOrgPreferences(orgId);
    if (orgPatch.signInEmailDomains) await refuseTakenDomains(deps, orgId, current.signInEmailDomains, orgPatch.signInEmailDomains);
    const scan = "piiAction" in orgPatch || "security" in orgPatch ? patchScanPolicy(current, patch) : {};
    await deps.store.setOrgPreferences(orgId, { ...current, ...orgPatch, ...scan });
    await deps.onPreferencesChanged(orgId);
    await recordAudit(deps.store, orgId, actor, "preferences.update", orgId, { changed: Object.keys(orgPatch) }, deps.now());
  }
  if (Object.keys(personalPatch).length > 0) {
    const current = await deps.store.getPersonalPreferences(identity.id);
    await deps.store.setPersonalPreferences(identity.id, { ...current, ...personalPatch });
  }
  return readPreferences(deps, identity);
}

/** The webhook address is checked against the egress policy when saved (and again at each delivery). */
async function checkWebhookAddress(url: string | null | undefined): Promise<void> {
  const refused = url ? await checkEgressUrl(url) : null;
  if (refused)
    throw badRequest(`params.set.alertWebhookUrl: this address is not allowed: ${refused}`, { param: "params.set.alertWebhookUrl" });
}

/**
 * A fallback is one model, as `x-gw-fallback-models` says: a family or `gateway/auto`
 * kept here would be sent to the vendor literally whenever its model failed.
 */
function refuseRoutedFallbacks(fallbacks: Record<string, string[]>): void {
  for (const [model, models] of Object.entries(fallbacks)) {
    const where = `params.set.fallbackModels.${model}`;
    if (isRoutedName(model)) throw routedNameRefused(where, model, NAME_FALLBACK_MODELS);
    const routed = models.find(isRoutedName);
    if (routed !== undefined) throw routedNameRefused(where, routed, NAME_FALLBACK_MODELS);
  }
}
