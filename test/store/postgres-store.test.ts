import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { newId } from "../../src/domain/ids.ts";
import { UsageBuffer } from "../../src/state/usage-buffer.ts";
import { RowsRefused } from "../../src/store/rows-refused.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { openStore } from "../../src/store/open-store.ts";
import { PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { freePort, type PostgresServer, startPostgres } from "../support/servers.ts";
import { apiKeyRecord, usageEvent } from "../support/records.ts";
import { runFlushRetryContract } from "./flush-retry-contract.ts";
import { runStoreContract } from "./store-contract.ts";

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

// Each test gets its own database, so the contract's "list everything" checks see only its rows.
const postgresStore = async () => new PostgresStore(await pg.createDatabase(), { max: 2 });
runStoreContract("Postgres", postgresStore);
runFlushRetryContract("Postgres", postgresStore);

test("a postgres:// URL opens the Postgres store", async () => {
  const url = await pg.createDatabase();
  const store = openStore({ databaseUrl: url, dataDir: "/nonexistent" });
  expect(store).toBeInstanceOf(PostgresStore);
  await store.migrate();
  await store.ping();
  await store.close();
});

test("nodes starting together apply each migration once, under the advisory lock", async () => {
  const url = await pg.createDatabase();
  const stores = Array.from({ length: 4 }, () => new PostgresStore(url, { max: 1 }));
  await Promise.all(stores.map((s) => s.migrate()));
  const sql = new SQL(url, { max: 1 });
  const rows = (await sql`SELECT version FROM schema_migrations ORDER BY version`) as { version: number }[];
  expect(rows.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
  await sql.close();
  await Promise.all(stores.map((s) => s.close()));
});

test("a database a newer gateway migrated is refused with the versions it does not know", async () => {
  const url = await pg.createDatabase();
  const first = new PostgresStore(url, { max: 1 });
  await first.migrate();
  await first.close();
  const next = (MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0) + 1;
  const sql = new SQL(url, { max: 1 });
  await sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${next}, 'from_the_future', 1)`;
  await sql.close();
  const older = new PostgresStore(url, { max: 1 });
  await expect(older.migrate()).rejects.toThrow(`migrated by a newer gateway (schema ${next} from_the_future`);
  await older.close();
});

test("a database it cannot reach or log in to is named by its setting and address, never with the password", async () => {
  const url = new URL(await pg.createDatabase());
  const refused = new URL(url);
  refused.port = String(await freePort());
  refused.password = "hunter2-secret";
  const stranger = new URL(url);
  stranger.username = "nobody_here";
  stranger.password = "hunter2-secret";
  for (const [address, says] of [
    [refused, "cannot reach Postgres"],
    [stranger, "cannot log in to Postgres"],
  ] as const) {
    const store = new PostgresStore(address.toString(), { max: 1 });
    const err = await store.migrate().then(
      () => null,
      (e: Error) => e.message,
    );
    await store.close();
    expect(err).toStartWith(`GW_DATABASE_URL: ${says} at postgres://${address.username}@${address.host}${address.pathname} (`);
    expect(err).not.toContain("hunter2");
  }
});

test("flushes from several nodes at once, touching the same keys and roll-up rows, all land", async () => {
  const url = await pg.createDatabase();
  const setup = new PostgresStore(url, { max: 1 });
  await setup.migrate();
  const org = { id: newId("org"), name: "o", tier: "enterprise" as const, createdAt: 1 };
  await setup.createOrganization(org);
  const sa = { id: newId("sa"), orgId: org.id, name: "b", description: "", role: "member" as const, createdBy: null, createdAt: 1 };
  await setup.createServiceAccount(sa);
  const keys = ["a", "b", "c"].map((name) => apiKeyRecord(org.id, sa.id, { name, keyPrefix: "gw_live_x", createdAt: 1 }));
  for (const k of keys) await setup.createApiKey(k);
  const nodes = Array.from({ length: 3 }, () => new PostgresStore(url, { max: 2 }));
  const hour = 3_600_000 * 490_000;
  const flush = (node: PostgresStore, n: number) => {
    // Each node touches the keys in a different order: sorted statements must not deadlock.
    const order = n % 2 ? [...keys].reverse() : keys;
    return node.writeFlush({
      id: crypto.randomUUID(),
      events: order.map((k, i) => usageEvent(org.id, k.id, { createdAt: hour + i, costMicros: 10 })),
      keyTouches: order.map((k) => ({ keyId: k.id, requests: 1, spendMicros: 10, lastUsedAt: hour + n })),
    });
  };
  await Promise.all(Array.from({ length: 30 }, (_, n) => flush(nodes[n % 3] as PostgresStore, n)));
  expect(await setup.countUsageEvents(org.id)).toBe(90);
  for (const k of keys) expect(await setup.getApiKey(k.id)).toMatchObject({ requestCount: 30, spentMicros: 300, lastUsedAt: hour + 29 });
  expect(await setup.sumCostMicros(org.id, null, hour)).toBe(900);
  await Promise.all([setup, ...nodes].map((s) => s.close()));
});

test("a flush while the database is away is a passing failure: the batch waits whole and is written once when it is back", async () => {
  const url = await pg.createDatabase();
  const store = new PostgresStore(url, { max: 1 });
  await store.migrate();
  const org = { id: newId("org"), name: "Acme", tier: "enterprise" as const, createdAt: 1 };
  await store.createOrganization(org);
  const errors: unknown[] = [];
  const buffer = new UsageBuffer({
    write: (b) => store.writeFlush(b),
    intervalMs: 60_000,
    maxEvents: 1_000_000,
    onError: (err) => errors.push(err),
  });
  const event = (i: number) => usageEvent(org.id, null, { id: `evt_away_${i}`, createdAt: 1000 + i });
  for (let i = 0; i < 5; i++) buffer.record(event(i));
  pg.kill();
  try {
    await buffer.flush();
  } finally {
    await pg.restart();
  }
  expect(errors).toHaveLength(1);
  expect(errors[0]).not.toBeInstanceOf(RowsRefused);
  expect(buffer.stats()).toMatchObject({ pending: 5, failures: 1, refusedEvents: 0 });
  await buffer.stop();
  expect((await store.listUsageEvents(org.id)).map((e) => e.id)).toEqual([0, 1, 2, 3, 4].map((i) => `evt_away_${i}`));
  await store.close();
});

test("optimized documents recorded from several nodes at once are each counted once in the running totals", async () => {
  const url = await pg.createDatabase();
  const setup = new PostgresStore(url, { max: 1 });
  await setup.migrate();
  const orgId = newId("org");
  const nodes = Array.from({ length: 3 }, () => new PostgresStore(url, { max: 4 }));
  // 60 documents at once, the first ones racing to create the organization's totals rows.
  await Promise.all(
    Array.from({ length: 60 }, (_, n) =>
      (nodes[n % 3] as PostgresStore).recordEtlDocument({
        id: newId("doc"),
        orgId,
        createdAt: n,
        originalTokens: 10,
        optimizedTokens: 7,
        costSavingsMicros: 3,
        transformations: n % 2 ? ["normalization", "deduplication"] : ["deduplication", "normalization", "chunking"],
      }),
    ),
  );
  expect(await setup.getEtlTotals(orgId)).toEqual({
    documents: 60,
    originalTokens: 600,
    optimizedTokens: 420,
    costSavingsMicros: 180,
    transformations: { normalization: 60, deduplication: 60, chunking: 30 },
  });
  await Promise.all([setup, ...nodes].map((s) => s.close()));
});
