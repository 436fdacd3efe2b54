/**
 * A memory cache in front of a slow loader (the store): synchronous on a hit,
 * concurrent misses for one key share a single load, and an eviction during a load
 * wins over the load's result. The key cache and the provider directory are both this.
 */
import { LRUCache } from "lru-cache";

export interface LoadingCacheOptions<V> {
  loader: (key: string) => Promise<V>;
  ttlMs: number;
  max: number;
  /** A per-value TTL (e.g. shorter for "not found"); undefined keeps the default. */
  ttlFor?: (value: V) => number | undefined;
}

export class LoadingCache<V> {
  // lru-cache holds objects; the box lets null and primitives be cached too.
  private readonly cache: LRUCache<string, { v: V }>;
  private readonly loading = new Map<string, Promise<V>>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly opts: LoadingCacheOptions<V>) {
    // ttlResolution 0: read the clock on each lookup. The default (1 ms) caches the time
    // and arms a timer to forget it, one timer each millisecond a cache is used: on a
    // request after a pause, those timers fire while its answer is still on the way.
    this.cache = new LRUCache({ max: opts.max, ttl: opts.ttlMs, ttlResolution: 0 });
  }

  get(key: string): V | Promise<V> {
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit.v;
    }
    this.misses++;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const load = this.opts
      .loader(key)
      .then((v) => {
        if (this.loading.get(key) === load) this.cache.set(key, { v }, { ttl: this.opts.ttlFor?.(v) });
        return v;
      })
      .finally(() => {
        if (this.loading.get(key) === load) this.loading.delete(key);
      });
    this.loading.set(key, load);
    return load;
  }

  evict(key: string): void {
    this.cache.delete(key);
    this.loading.delete(key);
  }

  /** Forgets every entry and every load under way (another node's changes may have been missed). */
  clear(): void {
    this.cache.clear();
    this.loading.clear();
  }

  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hits, misses: this.misses, size: this.cache.size };
  }
}
