/**
 * API key records in memory, by key hash: the authentication stage's only lookup on
 * the hot path. Misses go to the store once (concurrent misses share one load);
 * unknown hashes are remembered briefly so a flood of bad keys does not reach the
 * store. A revocation or change evicts the entry at once.
 */
import { LRUCache } from "lru-cache";
import type { KeyPrincipal } from "../domain/types.ts";

export interface KeyCacheOptions {
  loader: (keyHash: string) => Promise<KeyPrincipal | null>;
  ttlMs: number;
  negativeTtlMs?: number;
  max?: number;
}

/** lru-cache stores objects only; this stands for "no such key". */
const MISSING = Symbol("missing");
type Entry = KeyPrincipal | typeof MISSING;

export class KeyCache {
  private readonly cache: LRUCache<string, { v: Entry }>;
  private readonly loading = new Map<string, Promise<KeyPrincipal | null>>();
  private readonly negativeTtlMs: number;
  private hits = 0;
  private misses = 0;

  constructor(private readonly opts: KeyCacheOptions) {
    this.negativeTtlMs = opts.negativeTtlMs ?? 5_000;
    this.cache = new LRUCache({ max: opts.max ?? 200_000, ttl: opts.ttlMs });
  }

  /** Synchronous when cached; a promise only on a miss. */
  get(keyHash: string): KeyPrincipal | null | Promise<KeyPrincipal | null> {
    const hit = this.cache.get(keyHash);
    if (hit !== undefined) {
      this.hits++;
      return hit.v === MISSING ? null : hit.v;
    }
    this.misses++;
    const pending = this.loading.get(keyHash);
    if (pending) return pending;
    const load = this.opts
      .loader(keyHash)
      .then((p) => {
        // An eviction during the load wins: only cache what is still wanted.
        if (this.loading.get(keyHash) === load) {
          if (p) this.cache.set(keyHash, { v: p });
          else this.cache.set(keyHash, { v: MISSING }, { ttl: this.negativeTtlMs });
        }
        return p;
      })
      .finally(() => {
        if (this.loading.get(keyHash) === load) this.loading.delete(keyHash);
      });
    this.loading.set(keyHash, load);
    return load;
  }

  evict(keyHash: string): void {
    this.cache.delete(keyHash);
    this.loading.delete(keyHash);
  }

  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hits, misses: this.misses, size: this.cache.size };
  }
}
