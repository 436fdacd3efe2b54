/**
 * The ETL metrics over a real store: they read the organization's running totals and its
 * ten newest documents, nothing that grows with history, and a retention prune of the
 * documents leaves the answer as it was.
 */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RECENT_DOCUMENTS, etlMetrics } from "../../../src/services/context-optimizer/etl-service.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import type { Store } from "../../../src/store/store.ts";

/** `store`, with every method call it receives written down (name and arguments). */
function recording(store: Store): { store: Store; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const proxy = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push([name, ...args]);
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

test("the metrics read the totals and the newest documents only, and are the same after old documents are pruned", async () => {
  const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-etl-")), "g.db"));
  await store.migrate();
  await store.createOrganization({ id: "org_a", name: "A", tier: "enterprise", createdAt: 0 });
  for (let i = 1; i <= 25; i++)
    await store.recordEtlDocument({
      id: `doc_${String(i).padStart(2, "0")}`,
      orgId: "org_a",
      createdAt: i * 1000,
      originalTokens: 100,
      optimizedTokens: i % 5 ? 80 : 100,
      costSavingsMicros: 5,
      transformations: i % 5 ? ["normalization", "deduplication"] : ["normalization"],
    });
  const { store: watched, calls } = recording(store);

  const before = await etlMetrics(watched, "org_a");
  expect(calls).toEqual([
    ["getEtlTotals", "org_a"],
    ["listEtlDocuments", "org_a", RECENT_DOCUMENTS],
  ]);
  expect(before).toMatchObject({
    totalDocuments: 25,
    totalOriginalTokens: 2500,
    totalOptimizedTokens: 2100,
    totalTokensSaved: 400,
    averageSavingsPercent: 16,
    totalCostSavings: 0.000125,
    transformations: { normalization: 25, deduplication: 20, compression: 0, chunking: 0 },
    topTransformation: "normalization",
  });
  expect(before.recentDocuments.map((d) => d.documentId)).toEqual(Array.from({ length: 10 }, (_, i) => `doc_${25 - i}`));
  expect(before.recentDocuments[0]).toEqual({
    documentId: "doc_25",
    timestamp: new Date(25_000).toISOString(),
    originalTokens: 100,
    optimizedTokens: 100,
    savingsPercent: 0,
    transformationsApplied: ["normalization"],
  });

  expect(await store.pruneEtlDocuments(Number.MAX_SAFE_INTEGER, RECENT_DOCUMENTS)).toBe(15);
  expect(await etlMetrics(store, "org_a")).toEqual(before);
  await store.close();
});
