/**
 * The read-through caches in front of the store (API keys, provider configurations,
 * organization preferences), as the request path and the change bus see them. The
 * first read is always local memory; another implementation (one shared across nodes)
 * must keep that, and learn of changes made elsewhere through the change bus.
 */

export interface CacheStats {
  hits: number;
  misses: number;
  size: number;
}

export interface ReadThroughCache<V> {
  /** The value, synchronously on a hit; a miss loads it from the store (concurrent misses share one load). */
  get(key: string): V | Promise<V>;
  /** Drops one entry now: it changed (here, or on another node as the change bus reports). A load in flight for it is discarded. */
  evict(key: string): void;
  /** Drops everything: changes may have been missed (a lost subscription), so nothing held can be trusted. */
  clear(): void;
  stats(): CacheStats;
}
