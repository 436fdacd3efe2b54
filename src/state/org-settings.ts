/** Each organization's preferences in memory (budget, PII action, ...): policy stages read them on every call. */
import type { OrgPreferences } from "../domain/types.ts";
import type { ReadThroughCache } from "./cache.ts";
import { LoadingCache } from "./loading-cache.ts";

/** Preferences by organization id. */
export interface OrgSettings extends ReadThroughCache<OrgPreferences> {}

export class MemoryOrgSettings extends LoadingCache<OrgPreferences> implements OrgSettings {
  constructor(load: (orgId: string) => Promise<OrgPreferences>, ttlMs = 5 * 60_000) {
    super({ loader: load, ttlMs, max: 100_000 });
  }
}
