/**
 * "Test connection" for a provider the caller can see: the policy verdict for the
 * organization's tier (geography and tier), and, only when policy allows calling it,
 * whether the provider answers its model list with the stored key. The answer never
 * carries the key or the provider's response body.
 */
import type { Identity } from "../domain/identity.ts";
import { ApiError } from "../lib/errors.ts";
import { configuredProviderVerdicts } from "../policy/provider-authorization.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import type { ModelList } from "./model-list.ts";
import { listProviders, openCredentials, type ProviderDeps } from "./providers.ts";

export interface ProviderTestResult {
  providerId: string;
  /** null: the organization's tier may call it; otherwise why not. */
  refusedBecause: string | null;
  /** true/false: the model list answered or not; null: not tried (refused by policy, or no list to ask). */
  reachable: boolean | null;
  modelCount: number | null;
  error: string | null;
}

export async function testProvider(deps: ProviderDeps, models: ModelList, identity: Identity, id: string): Promise<ProviderTestResult> {
  const record = (await listProviders(deps, identity)).find((p) => p.id === id);
  if (!record) throw new ApiError(404, "not_found", `no provider ${id.slice(0, 100)} in this organization`, { param: "params.id" });
  const kind = record.provider as ProviderKind;
  const verdict = configuredProviderVerdicts(deps.catalog, kind, record)[identity.organization.tier];
  const base = { providerId: record.id, refusedBecause: verdict?.message ?? null };
  // Its key is a former member's: never used again, not even to test it.
  if (record.disabled) return { ...base, reachable: null, modelCount: null, error: `disabled: ${record.disabled.reason}` };
  if (verdict) return { ...base, reachable: null, modelCount: null, error: null };
  try {
    const ids = await models.probe({
      record,
      kind,
      credentials: openCredentials(deps.box, record),
      authorization: configuredProviderVerdicts(deps.catalog, kind, record),
    });
    return ids === null
      ? { ...base, reachable: null, modelCount: null, error: "This provider has no model list to test with; make a call to check it." }
      : { ...base, reachable: true, modelCount: ids.length, error: null };
  } catch (err) {
    return { ...base, reachable: false, modelCount: null, error: String((err as Error)?.message ?? err).slice(0, 300) };
  }
}
