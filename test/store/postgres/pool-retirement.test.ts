/**
 * A pool retired because a statement got no connection from it in time: statements still
 * on it (a slow but healthy answer, a caller queued for its one connection) finish there,
 * new ones take a fresh pool, and the old pool is closed after its last statement. Through
 * the driver: a caller queued on a pool whose connections hung, retired when another gave
 * up waiting, is answered once the database is back, where closing the pool at once
 * failed it.
 */
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { PostgresDriver } from "../../../src/store/postgres/postgres-driver.ts";
import { RetiringPools } from "../../../src/store/postgres/pool-retirement.ts";
import { boundedOn } from "../../../src/store/postgres/statement-bound.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { relayedUrl } from "../../support/tcp-relay.ts";

const pg = postgresPerFile();

/** Resolves once a statement sleeping on the server is running (read from another connection). */
async function sleeping(admin: SQL): Promise<void> {
  for (;;) {
    const rows = await admin.unsafe(
      "SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(0.5)%' AND pid <> pg_backend_pid()",
    );
    if (rows.length > 0) return;
    await Bun.sleep(5);
  }
}

test("a slow but healthy statement and a caller queued behind it finish on the retired pool; new statements take a fresh one; the old one closes after them", async () => {
  const url = await pg.createDatabase();
  const admin = new SQL(url, { max: 1 });
  const pools = new RetiringPools(() => new SQL(url, { max: 1 }));
  const bounded = (text: string) => pools.use((sql) => boundedOn(sql, 30_000, (conn) => conn.unsafe(text)));
  try {
    const old = pools.sql;
    const slow = bounded("SELECT pg_sleep(0.5), 7 AS n");
    await sleeping(admin);
    // Waits for the pool's one connection.
    const queued = bounded("SELECT 8 AS n");

    pools.retire(old);
    expect(pools.sql).not.toBe(old);
    expect(pools.retiring).toBe(1);
    expect((await bounded("SELECT 9 AS n"))[0]).toEqual({ n: 9 });

    expect((await slow)[0]).toMatchObject({ n: 7 });
    expect((await queued)[0]).toEqual({ n: 8 });
    expect(pools.retiring).toBe(0);
    await expect(old.unsafe("SELECT 1")).rejects.toThrow();
    // Retiring it again (another statement that gave up on it) changes nothing.
    const fresh = pools.sql;
    pools.retire(old);
    expect(pools.sql).toBe(fresh);
  } finally {
    await pools.close(0);
    await admin.close();
  }
}, 60_000);

test("a retired pool with nothing on it is closed at once, and closing closes the pools still retiring", async () => {
  const url = await pg.createDatabase();
  const admin = new SQL(url, { max: 1 });
  const pools = new RetiringPools(() => new SQL(url, { max: 1 }));
  try {
    const idle = pools.sql;
    await idle.unsafe("SELECT 1");
    pools.retire(idle);
    expect(pools.retiring).toBe(0);
    await expect(idle.unsafe("SELECT 1")).rejects.toThrow();

    const busy = pools.sql;
    const slow = pools.use((sql) => sql.unsafe("SELECT pg_sleep(0.5)"));
    await sleeping(admin);
    pools.retire(busy);
    expect(pools.retiring).toBe(1);
    await pools.close(0);
    await expect(slow).rejects.toThrow();
    expect(pools.retiring).toBe(0);
  } finally {
    await admin.close();
  }
}, 60_000);

test("a caller queued on a pool of hung connections when it is retired is answered on it once the database is back", async () => {
  const url = await pg.createDatabase();
  const { url: relayed, relay } = await relayedUrl(url);
  const driver = new PostgresDriver(relayed, { max: 2, timeoutMs: 1000 });
  try {
    await Promise.all([driver.all("SELECT 1", []), driver.all("SELECT 2", [])]);
    relay.freeze();
    // Two statements hang on the pool's two connections; a third waits for one and gives
    // up at the bound, which retires the pool (the two hung ones are closed at theirs).
    const hung = ["SELECT 'a'", "SELECT 'b'", "SELECT 'c'"].map((text) =>
      driver.all(text, []).then(
        () => "answered",
        () => "failed",
      ),
    );
    await Bun.sleep(400);
    relay.thaw();
    // Called before the retirement, so queued on that pool: it gets a fresh connection
    // there when the hung ones are closed, well within its own bound.
    const healthy = driver.all("SELECT pg_sleep(0.1), 7 AS n", []);
    expect(await Promise.all(hung)).toEqual(["failed", "failed", "failed"]);
    expect((await healthy)[0]).toMatchObject({ n: 7 });
    expect((await driver.all("SELECT 8 AS n", []))[0]).toEqual({ n: 8 });
  } finally {
    await driver.close();
    relay.close();
  }
}, 60_000);
