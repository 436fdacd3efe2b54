/** Each organization's preferences in memory (budget, PII action, ...): policy stages read them on every call. */
import type { OrgPreferences } from "../domain/types.ts";
import { LoadingCache } from "./loading-cache.ts";

export class OrgSettings extends LoadingCache<OrgPreferences> {
  constructor(load: (orgId: string) => Promise<OrgPreferences>, ttlMs = 5 * 60_000) {
    super({ loader: load, ttlMs, max: 100_000 });
  }
}
