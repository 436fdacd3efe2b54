/**
 * Each organization's provider configurations in memory, credentials already
 * opened, so resolving a call's provider never touches the store or decrypts. A
 * provider change drops the organization's entry; the TTL bounds staleness across nodes.
 */
import type { ProviderConfigRecord } from "../domain/types.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import type { ProviderCredentials } from "../providers/credentials.ts";
import { LoadingCache } from "./loading-cache.ts";

export interface LiveProvider {
  record: ProviderConfigRecord;
  kind: ProviderKind;
  credentials: ProviderCredentials;
}

export class ProviderDirectory extends LoadingCache<LiveProvider[]> {
  constructor(load: (orgId: string) => Promise<ProviderConfigRecord[]>, open: (rec: ProviderConfigRecord) => ProviderCredentials, ttlMs = 5 * 60_000) {
    super({
      ttlMs,
      max: 100_000,
      loader: async (orgId) => (await load(orgId)).map((record) => ({ record, kind: record.provider as ProviderKind, credentials: open(record) })),
    });
  }
}
