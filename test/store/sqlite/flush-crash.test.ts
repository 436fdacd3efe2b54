/**
 * A crash in the middle of a usage flush (SIGKILL, a power cut as far as the process
 * knows) leaves the SQLite store consistent: the events, the roll-ups, the key's counters
 * and the flush ids all hold whole flushes, never part of one.
 */
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { newId } from "../../../src/domain/ids.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import { apiKeyRecord } from "../../support/records.ts";
import { removeDir, tempDataDir } from "../../support/gateway-process.ts";

setDefaultTimeout(60_000);

test("a writer killed with SIGKILL mid-flush leaves whole flushes only, every total agreeing with the events", async () => {
  const dir = tempDataDir();
  const path = join(dir, "gateway.db");
  const setup = new SqliteStore(path);
  await setup.migrate();
  const org = { id: newId("org"), name: "Acme", tier: "enterprise" as const, createdAt: 1 };
  await setup.createOrganization(org);
  const sa = { id: newId("sa"), orgId: org.id, name: "bot", description: "", role: "member" as const, createdBy: null, createdAt: 1 };
  await setup.createServiceAccount(sa);
  const key = apiKeyRecord(org.id, sa.id, { createdAt: 1 });
  await setup.createApiKey(key);
  await setup.close();

  for (let round = 0; round < 3; round++) {
    const writer = Bun.spawn(["bun", join(import.meta.dir, "flush-crash-writer.ts"), path, org.id, key.id], {
      stdout: "pipe",
      stderr: "inherit",
    });
    // Killed once it has written a few flushes, wherever the next one has got to: no clock decides.
    const reader = writer.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let said = "";
    while (!said.includes(`flushed ${round + 2}\n`)) said += (await reader.read()).value ?? "";
    writer.kill("SIGKILL");
    await writer.exited;

    const db = new Database(path);
    const one = (sql: string) => Object.values(db.query(sql).get() as Record<string, number>)[0] as number;
    const flushes = one("SELECT count(*) FROM usage_flushes");
    const events = one("SELECT count(*) FROM usage_events");
    expect(events).toBe(flushes * 2000);
    expect(one("SELECT coalesce(sum(requests), 0) FROM usage_hourly")).toBe(events);
    expect(one("SELECT coalesce(sum(requests), 0) FROM usage_daily")).toBe(events);
    expect(one("SELECT coalesce(sum(cost_micros), 0) FROM usage_hourly")).toBe(events * 7);
    expect(db.query("SELECT request_count, spent_micros FROM api_keys WHERE id = ?").get(key.id)).toEqual({
      request_count: events,
      spent_micros: events * 7,
    });
    expect(one("PRAGMA integrity_check") as unknown).toBe("ok");
    db.close();
  }
  removeDir(dir);
});
