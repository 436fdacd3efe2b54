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
import { apiKeyPrefix, generateApiKey } from "../src/domain/api-key.ts";
import { newId } from "../src/domain/ids.ts";
import { openServices } from "../src/runtime.ts";
import { initializeOrganization } from "../src/services/organizations.ts";
import { KeyCache } from "../src/state/key-cache.ts";

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
    const { store, services } = await openServices(loadConfig({ data: dir }, {}));
    const org = await initializeOrganization(services, { name: "Bench", adminEmail: "bench@example.com", tier: "enterprise" });
    const values: string[] = [];
    const template = org.apiKey;
    for (let i = 0; i < keys; i++) {
      const value = generateApiKey("live");
      values.push(value);
      await store.createApiKey({ ...template, id: newId("key"), keyHash: services.hasher.hash(value), keyPrefix: apiKeyPrefix(value), name: `k${i}`, createdAt: Date.now() });
    }
    const cache = new KeyCache({ loader: (h) => store.getKeyPrincipalByHash(h), ttlMs: 600_000 });
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
