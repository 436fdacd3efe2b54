/**
 * A usage flush to a Postgres gone silent (a TCP relay that keeps the connections open and
 * carries nothing, as a frozen server or a partition does): the flush gives up within the
 * store's bound, its rows wait, and once the database answers again they land once, over a
 * fresh connection (the pool holds one, so reusing the hung one would time out again).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../../src/domain/ids.ts";
import { ApiError } from "../../../src/lib/errors.ts";
import { UsageBuffer } from "../../../src/state/usage-buffer.ts";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { apiKeyRecord, usageEvent } from "../../support/records.ts";
import { type PostgresServer, startPostgres } from "../../support/servers.ts";
import { startTcpRelay, type TcpRelay } from "../../support/tcp-relay.ts";

let pg: PostgresServer;
let relay: TcpRelay | null = null;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  relay?.close();
  await pg?.stop();
});

test("a flush to a silent database fails within the bound, keeps its rows, and writes them once when it answers again", async () => {
  const url = await pg.createDatabase();
  const direct = new PostgresStore(url, { max: 1 });
  await direct.migrate();
  const org = { id: newId("org"), name: "Acme", tier: "enterprise" as const, createdAt: 1 };
  await direct.createOrganization(org);
  const sa = { id: newId("sa"), orgId: org.id, name: "bot", description: "", role: "member" as const, createdBy: null, createdAt: 1 };
  await direct.createServiceAccount(sa);
  const key = apiKeyRecord(org.id, sa.id, { createdAt: 1 });
  await direct.createApiKey(key);

  const address = new URL(url);
  relay = await startTcpRelay(Number(address.port));
  address.port = String(relay.port);
  const node = new PostgresStore(address.toString(), { max: 1, timeoutMs: 300 });
  const errors: unknown[] = [];
  const buffer = new UsageBuffer({ write: (b) => node.writeFlush(b), intervalMs: 60_000, maxEvents: 1_000_000, onError: (e) => errors.push(e) });
  try {
    const first = usageEvent(org.id, key.id, { createdAt: 1 });
    buffer.record(first);
    await buffer.flush();
    expect(buffer.stats().pending).toBe(0);

    relay.freeze();
    const waiting = [2, 3, 4].map((createdAt) => usageEvent(org.id, key.id, { createdAt }));
    for (const e of waiting) buffer.record(e);
    await buffer.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ApiError);
    expect((errors[0] as ApiError).status).toBe(503);
    expect(buffer.stats()).toMatchObject({ pending: 3, failures: 1 });
    // Every later flush is bounded too, and keeps the same rows.
    await buffer.flush();
    expect(buffer.stats()).toMatchObject({ pending: 3, failures: 2 });

    relay.thaw();
    await buffer.flush();
    expect(buffer.stats().pending).toBe(0);
    // Once each: the events, and the key's spend their counters carried.
    const rows = await direct.listUsageEvents(org.id);
    expect(rows.map((r) => r.id).sort()).toEqual([first, ...waiting].map((e) => e.id).sort());
    expect((await direct.getApiKey(key.id))?.spentMicros).toBe([first, ...waiting].reduce((sum, e) => sum + e.costMicros, 0));
  } finally {
    await buffer.stop();
    await node.close();
    await direct.close();
  }
}, 60_000);
