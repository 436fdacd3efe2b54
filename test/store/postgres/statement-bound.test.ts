/**
 * A usage flush to a Postgres gone silent (a TCP relay that keeps the connections open and
 * carries nothing, as a frozen server or a partition does): the flush gives up within the
 * store's bound, its rows wait, and once the database answers again they land once, over a
 * fresh connection (the pool holds one, so reusing the hung one would time out again).
 * And a flush that times out on our side while the server goes on to commit it is not
 * written again by its retry.
 */
import { afterAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { ApiError } from "../../../src/lib/errors.ts";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { usageEvent } from "../../support/records.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { relayedUrl, type TcpRelay } from "../../support/tcp-relay.ts";
import { bufferOn, usageDatabase } from "./usage-database.ts";

const pg = postgresPerFile();
let relay: TcpRelay | null = null;
afterAll(() => relay?.close());

test("a flush to a silent database fails within the bound, keeps its rows, and writes them once when it answers again", async () => {
  const { url, direct, org, key } = await usageDatabase(() => pg.createDatabase());

  const relayed = await relayedUrl(url);
  relay = relayed.relay;
  const node = new PostgresStore(relayed.url, { max: 1, timeoutMs: 300 });
  const { buffer, errors } = bufferOn(node);
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

test("a flush that times out while the server commits it is not written again by its retry", async () => {
  const { url, direct, org, key } = await usageDatabase(() => pg.createDatabase());
  // The next flush's commit stalls past the bound, once: a deferred trigger on the batch's
  // id record sleeps at COMMIT, after every row was sent. The timed-out side closes its
  // connection; the server notices only after the commit.
  const admin = new SQL(url, { max: 1 });
  await admin.unsafe(`CREATE TABLE stall_once (n int);
    INSERT INTO stall_once VALUES (1);
    CREATE FUNCTION stall_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM stall_once) THEN DELETE FROM stall_once; PERFORM pg_sleep(1.5); END IF;
        RETURN NULL;
      END $$;
    CREATE CONSTRAINT TRIGGER stall_commit AFTER INSERT ON usage_flushes DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION stall_commit();`);
  const node = new PostgresStore(url, { max: 2, timeoutMs: 300 });
  const { buffer, errors } = bufferOn(node);
  try {
    const events = [1, 2, 3].map((createdAt) => usageEvent(org.id, key.id, { createdAt }));
    for (const e of events) buffer.record(e);
    await buffer.flush();
    expect(errors).toHaveLength(1);
    expect(buffer.stats().pending).toBe(3);
    // Retried until it goes through: the retry waits on the stalled commit's id, then finds it.
    while (buffer.stats().pending > 0) await buffer.flush();
    const [stalled] = await admin.unsafe("SELECT count(*)::int AS n FROM stall_once");
    expect(stalled.n).toBe(0);
    const rows = await direct.listUsageEvents(org.id);
    expect(rows.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect((await direct.getApiKey(key.id))?.spentMicros).toBe(events.reduce((sum, e) => sum + e.costMicros, 0));
  } finally {
    await buffer.stop();
    await node.close();
    await admin.close();
    await direct.close();
  }
}, 60_000);
