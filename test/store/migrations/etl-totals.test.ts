/**
 * The etl_totals migration over a database that already holds optimized documents: the
 * running totals start from what those rows add up to (per organization, each
 * transformation as many times as the rows list it), and later documents add to them,
 * on SQLite and on Postgres.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Dialect, MIGRATIONS, migrationSql } from "../../../src/store/migrations/index.ts";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import type { Store } from "../../../src/store/store.ts";
import { type PostgresServer, startPostgres } from "../../support/servers.ts";

const BEFORE = MIGRATIONS.slice(
  0,
  MIGRATIONS.findIndex((m) => m.name === "etl_totals"),
);

/** Two organizations' documents as the schema before running totals held them (org_c has none). */
const SEED = `
INSERT INTO organizations (id, name, tier, created_at) VALUES ('org_a', 'A', 'enterprise', 1), ('org_b', 'B', 'enterprise', 1), ('org_c', 'C', 'enterprise', 1);
INSERT INTO etl_documents (id, org_id, created_at, original_tokens, optimized_tokens, cost_savings_micros, transformations) VALUES
  ('doc_1', 'org_a', 10, 100, 60, 40, '["normalization","deduplication"]'),
  ('doc_2', 'org_a', 20, 50, 50, 0, '[]'),
  ('doc_3', 'org_a', 30, 4000000000, 3000000000, 2500000000, '["chunking","chunking","normalization"]'),
  ('doc_4', 'org_b', 40, 9, 3, 6, '["compression"]');
`;

/** The statements that bring an empty database to the version before, recorded as the stores record them, then the seed. */
function upToBefore(dialect: Dialect): string[] {
  return [
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    ...BEFORE.flatMap((m) => [
      migrationSql(m, dialect),
      `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, '${m.name}', 0)`,
    ]),
    SEED,
  ];
}

async function expectTotalsCarried(store: Store) {
  await store.migrate();
  expect(await store.getEtlTotals("org_a")).toEqual({
    documents: 3,
    originalTokens: 4_000_000_150,
    optimizedTokens: 3_000_000_110,
    costSavingsMicros: 2_500_000_040,
    transformations: { normalization: 2, deduplication: 1, chunking: 2 },
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

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

test("SQLite: the totals start from the documents already recorded", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "gw-migr-")), "gateway.db");
  const db = new Database(path);
  for (const text of upToBefore("sqlite")) db.exec(text);
  db.close();
  await expectTotalsCarried(new SqliteStore(path));
});

test("Postgres: the totals start from the documents already recorded", async () => {
  const url = await pg.createDatabase();
  const sql = new SQL(url, { max: 1 });
  try {
    for (const text of upToBefore("postgres")) await sql.unsafe(text);
  } finally {
    await sql.close();
  }
  await expectTotalsCarried(new PostgresStore(url, { max: 2 }));
});
