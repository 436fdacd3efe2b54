/**
 * Key lookup with 100,000 keys in the store: what authentication costs per request
 * (HMAC of the presented key, then the key cache), cached and from SQLite.
 *
 *   bun bench/key-lookup.bench.ts [--quick]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { openServices } from "../src/runtime.ts";
import { MemoryKeyCache } from "../src/state/key-cache.ts";
import { seedKeys } from "./lib/seed-keys.ts";

export interface KeyLookupResult {
  keys: number;
  /** Microseconds per lookup: hash + cache hit. */
  cachedMicros: number;
  /** Microseconds per lookup: hash + cache miss + SQLite read. */
  storeMicros: number;
}

export async function runKeyLookupBench(quick = false): Promise<KeyLookupResult> {
  const dir = mkdtempSync(join(tmpdir(), "gw-keybench-"));
  const keys = quick ? 2_000 : 100_000;
  try {
    const { values } = await seedKeys(dir, keys);
    const { store, services } = await openServices(loadConfig({ data: dir }, {}));
    const cache = new MemoryKeyCache({ loader: (h) => store.getKeyPrincipalByHash(h), ttlMs: 600_000 });
    let started = performance.now();
    for (const v of values) await cache.get(services.hasher.hash(v));
    const storeMicros = ((performance.now() - started) * 1000) / keys;
    started = performance.now();
    for (let round = 0; round < 3; round++) for (const v of values) cache.get(services.hasher.hash(v));
    const cachedMicros = ((performance.now() - started) * 1000) / (keys * 3);
    await store.close();
    return { keys, cachedMicros, storeMicros };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await runKeyLookupBench(process.argv.includes("--quick")));
