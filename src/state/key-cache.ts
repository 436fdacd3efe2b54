/**
 * API key records in memory, by key hash: the authentication stage's only lookup on
 * the hot path. Unknown hashes are remembered briefly so a flood of bad keys does
 * not reach the store. A revocation or change evicts the entry at once.
 */
import type { KeyPrincipal } from "../domain/types.ts";
import type { ReadThroughCache } from "./cache.ts";
import { LoadingCache } from "./loading-cache.ts";

/** Key records by key hash; `null` is a remembered "no such key". */
export interface KeyCache extends ReadThroughCache<KeyPrincipal | null> {}

export interface KeyCacheOptions {
  loader: (keyHash: string) => Promise<KeyPrincipal | null>;
  ttlMs: number;
  negativeTtlMs?: number;
  max?: number;
}

export class MemoryKeyCache extends LoadingCache<KeyPrincipal | null> implements KeyCache {
  constructor(opts: KeyCacheOptions) {
    const negativeTtlMs = opts.negativeTtlMs ?? 5_000;
    super({ loader: opts.loader, ttlMs: opts.ttlMs, max: opts.max ?? 200_000, ttlFor: (p) => (p === null ? negativeTtlMs : undefined) });
  }
}
