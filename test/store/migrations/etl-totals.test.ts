/**
 * The etl_totals migration over a database that already holds optimized documents: the
 * running totals start from what those rows add up to (per organization, each
 * transformation as many times as rows list it), and later documents add to them, on
 * SQLite and on Postgres.
 */
import { expect, test } from "bun:test";
import type { Store } from "../../../src/store/store.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { postgresBefore, sqliteBefore } from "./before-migration.ts";

/** Two organizations' documents as the schema before running totals held them (org_c has none). */
const SEED = `
INSERT INTO organizations (id, name, tier, created_at) VALUES ('org_a', 'A', 'enterprise', 1), ('org_b', 'B', 'enterprise', 1), ('org_c', 'C', 'enterprise', 1);
INSERT INTO etl_documents (id, org_id, created_at, original_tokens, optimized_tokens, cost_savings_micros, transformations) VALUES
  ('doc_1', 'org_a', 10, 100, 60, 40, '["normalization","deduplication"]'),
  ('doc_2', 'org_a', 20, 50, 50, 0, '[]'),
  ('doc_3', 'org_a', 30, 4000000000, 3000000000, 2500000000, '["chunking","normalization"]'),
  ('doc_4', 'org_b', 40, 9, 3, 6, '["compression"]');
`;

async function expectTotalsCarried(store: Store) {
  await store.migrate();
  expect(await store.getEtlTotals("org_a")).toEqual({
    documents: 3,
    originalTokens: 4_000_000_150,
    optimizedTokens: 3_000_000_110,
    costSavingsMicros: 2_500_000_040,
    transformations: { normalization: 2, deduplication: 1, chunking: 1 },
  });
  expect(await store.getEtlTotals("org_b")).toEqual({
    documents: 1,
    originalTokens: 9,
    optimizedTokens: 3,
    costSavingsMicros: 6,
    transformations: { compression: 1 },
  });
  expect((await store.getEtlTotals("org_c")).documents).toBe(0);
  // From here each document adds to the carried totals.
  await store.recordEtlDocument({
    id: "doc_5",
    orgId: "org_a",
    createdAt: 50,
    originalTokens: 1,
    optimizedTokens: 1,
    costSavingsMicros: 0,
    transformations: ["deduplication"],
  });
  expect(await store.getEtlTotals("org_a")).toMatchObject({ documents: 4, transformations: { deduplication: 2 } });
  await store.close();
}

const pg = postgresPerFile();

test("SQLite: the totals start from the documents already recorded", async () => {
  await expectTotalsCarried(sqliteBefore("etl_totals", SEED));
});

test("Postgres: the totals start from the documents already recorded", async () => {
  await expectTotalsCarried(await postgresBefore(await pg.createDatabase(), "etl_totals", SEED));
});
