/**
 * Processes opening one new SQLite database at once (a server starting beside `gateway
 * init`, or a script's setup step): each opens it and migrates it, and every migration is
 * applied once. Opening failed with "database is locked" and migrating with "table
 * organizations already exists".
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../../src/store/migrations/index.ts";
import { removeDir, ROOT, tempDataDir } from "../../support/gateway-process.ts";

const OPEN_AND_MIGRATE = `import { SqliteStore } from ${JSON.stringify(join(ROOT, "src/store/sqlite/sqlite-store.ts"))};
const store = new SqliteStore(process.argv[1]);
await store.migrate();
await store.close();
console.log("migrated");`;

test("six processes opening and migrating one new database at once all succeed, each migration applied once", async () => {
  const dir = tempDataDir();
  const path = join(dir, "gateway.db");
  const procs = Array.from({ length: 6 }, () => Bun.spawn(["bun", "-e", OPEN_AND_MIGRATE, path], { stdout: "pipe", stderr: "pipe" }));
  const results = await Promise.all(
    procs.map(async (p) => ({
      code: await p.exited,
      out: (await new Response(p.stdout).text()).trim(),
      err: await new Response(p.stderr).text(),
    })),
  );
  expect(results.map((r) => r.err.split("\n").find((l) => l.includes("Error")) ?? r.out)).toEqual(Array(6).fill("migrated"));
  const db = new Database(path);
  expect(db.query("SELECT version FROM schema_migrations ORDER BY version").all()).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
  db.close();
  removeDir(dir);
});
