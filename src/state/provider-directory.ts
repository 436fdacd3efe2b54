/**
 * Each organization's provider configurations in memory, credentials already
 * opened and authorization already worked out, so resolving and authorizing a call's
 * provider never touches the store, decrypts or re-derives policy. A provider change
 * drops the organization's entry (and with it those verdicts); the TTL bounds
 * staleness across nodes. Disabled providers are left out.
 */
import type { ProviderConfigRecord } from "../domain/types.ts";
import type { TierVerdicts } from "../policy/provider-authorization.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import type { ProviderCredentials } from "../providers/credentials.ts";
import type { ReadThroughCache } from "./cache.ts";
import { LoadingCache } from "./loading-cache.ts";

export interface LiveProvider {
  record: ProviderConfigRecord;
  kind: ProviderKind;
  credentials: ProviderCredentials;
  /** Whether each tier may call this provider (geography and tier), computed when the organization loaded. */
  authorization: TierVerdicts;
}

/** Oldest first: "any member's key" means the oldest configuration, whatever order a store returns. */
const byAge = (a: ProviderConfigRecord, b: ProviderConfigRecord) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** An organization's providers, oldest first, by organization id. */
export interface ProviderDirectory extends ReadThroughCache<LiveProvider[]> {}

export class MemoryProviderDirectory extends LoadingCache<LiveProvider[]> implements ProviderDirectory {
  constructor(
    load: (orgId: string) => Promise<ProviderConfigRecord[]>,
    open: (rec: ProviderConfigRecord) => ProviderCredentials,
    authorize: (kind: ProviderKind, rec: ProviderConfigRecord) => TierVerdicts,
    ttlMs = 5 * 60_000,
  ) {
    super({
      ttlMs,
      max: 100_000,
      // A disabled provider (its owner left) serves nobody; it stays in the store for an admin to delete.
      loader: async (orgId) =>
        (await load(orgId))
          .filter((record) => record.disabled === undefined)
          .sort(byAge)
          .map((record) => {
            const kind = record.provider as ProviderKind;
            return { record, kind, credentials: open(record), authorization: authorize(kind, record) };
          }),
    });
  }
}
