/** The embedded driver: its usage INSERTs write every row as given however many statement shapes, and it tells a refusal from a passing failure. */
import { expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../../src/domain/ids.ts";
import type { UsageEvent } from "../../../src/domain/types.ts";
import { Database } from "bun:sqlite";
import { SqliteDriver } from "../../../src/store/sqlite/sqlite-driver.ts";

test("flushes of more INSERT shapes than are held prepared write every row with its own values", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-driver-"));
  const driver = new SqliteDriver(join(dir, "gateway.db"));
  try {
    await driver.migrate();
    const orgId = newId("org");
    const keys = [newId("key"), newId("key"), null];
    const written: UsageEvent[] = [];
    // 90 flushes: row counts 1 to 90 (a full statement and a rest past 64), and within
    // each, rows alike or not by key, provider and model as the flush's number says: far
    // more shapes (row count and shared columns) than the driver keeps.
    for (let f = 1; f <= 90; f++) {
      const events = Array.from(
        { length: f },
        (_, i): UsageEvent => ({
          id: newId("evt"),
          requestId: crypto.randomUUID(),
          orgId,
          keyId: keys[f % 2 === 0 ? i % 3 : f % 3] ?? null,
          userId: null,
          provider: f % 3 === 0 && i % 2 === 1 ? "anthropic" : "openai",
          model: f % 5 === 0 ? `model-${i % 4}` : "gpt-4o",
          promptTokens: f,
          completionTokens: i,
          costMicros: f * 1000 + i,
          latencyMs: 1,
          status: 200,
          errorCode: null,
          createdAt: f * 1000 + i,
          priceEstimated: false,
          applicationId: null,
          attempts: 1,
        }),
      );
      await driver.writeFlush({ id: crypto.randomUUID(), events, keyTouches: [] }, Date.now());
      written.push(...events);
    }
    const rows = await driver.all(
      "SELECT id, key_id, provider, model, cost_micros, created_at FROM usage_events WHERE org_id = $1 ORDER BY created_at",
      [orgId],
    );
    expect(rows).toEqual(
      written.map((e) => ({
        id: e.id,
        key_id: e.keyId,
        provider: e.provider,
        model: e.model,
        cost_micros: e.costMicros,
        created_at: e.createdAt,
      })),
    );
  } finally {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a database another connection holds locked is a passing failure, a constraint the rows' fault", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-driver-"));
  const path = join(dir, "gateway.db");
  const driver = new SqliteDriver(path);
  try {
    await driver.migrate();
    const holder = new Database(path);
    const waiter = new Database(path);
    holder.exec("BEGIN IMMEDIATE");
    const busy = (() => {
      try {
        waiter.exec("BEGIN IMMEDIATE");
      } catch (err) {
        return err;
      }
    })();
    holder.exec("ROLLBACK");
    holder.close();
    waiter.close();
    expect((busy as { code?: string }).code).toBe("SQLITE_BUSY");
    expect(driver.refuses(busy)).toBe(false);
    const notNull = await driver.run("INSERT INTO organizations (id) VALUES (NULL)", []).catch((err: unknown) => err);
    expect(driver.refuses(notNull)).toBe(true);
    expect(driver.refuses(new TypeError("Binding expected string, TypedArray, boolean, number, bigint or null"))).toBe(true);
    expect(driver.refuses(new Error("disk I/O error"))).toBe(false);
  } finally {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the database and its -wal and -shm files are readable by their owner alone; one an older version left readable by everyone loses that", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-driver-"));
  const path = join(dir, "gateway.db");
  const mode = (file: string) => statSync(file).mode & 0o777;
  const driver = new SqliteDriver(path);
  await driver.migrate();
  for (const file of [path, `${path}-wal`, `${path}-shm`]) expect({ file, mode: mode(file).toString(8) }).toEqual({ file, mode: "600" });
  await driver.close();

  // A database an older version created under a 022 umask.
  const old = join(dir, "old.db");
  const db = new Database(old);
  db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
  db.close();
  chmodSync(old, 0o644);
  await new SqliteDriver(old).close();
  // Everyone's read bit goes; the group's (a backup group an operator chose) stays.
  expect(mode(old).toString(8)).toBe("640");
  rmSync(dir, { recursive: true, force: true });
});

test("a file that is not a SQLite database, or a damaged one, is named with the way back (the backup)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-driver-"));
  const garbage = join(dir, "garbage.db");
  writeFileSync(garbage, "not a database, whatever its name says".repeat(200));
  const open = async (path: string) => {
    try {
      const driver = new SqliteDriver(path);
      await driver.migrate();
      await driver.close();
      return "opened";
    } catch (err) {
      return (err as Error).message;
    }
  };
  expect(await open(garbage)).toBe(`${garbage} is damaged or not a SQLite database (file is not a database): restore it from a backup`);
  // A database cut short, as a disk that lost its tail leaves one.
  const cut = join(dir, "cut.db");
  const whole = new SqliteDriver(cut);
  await whole.migrate();
  await whole.close();
  truncateSync(cut, 8192);
  rmSync(`${cut}-wal`, { force: true });
  expect(await open(cut)).toStartWith(`${cut} is damaged or not a SQLite database (`);
  rmSync(dir, { recursive: true, force: true });
});
