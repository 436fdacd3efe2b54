/**
 * An outage's backlog on Postgres: written as one transaction it would take longer than
 * the store's bound on every try; in batches of a bounded size it lands whole and once
 * after the database answers again. And a batch of a backlog whose commit stalls past
 * the bound is not counted twice by its retry, nor are the batches after it.
 */
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { usageEvent } from "../../support/records.ts";
import { relayedUrl } from "../../support/tcp-relay.ts";
import { bufferOn, usageDatabase } from "./usage-database.ts";

const pg = postgresPerFile();
const HOUR = 3_600_000 * 520_000;

test("a backlog too large for the bound in one write lands whole and once, in bounded batches, after the database returns", async () => {
  const { url, direct, org, key } = await usageDatabase(() => pg.createDatabase());
  // Each event row takes 20 ms to insert: the 60 that wait take 1.2 s in one transaction,
  // past the 1 s bound on every try; ten of them take 0.2 s.
  const admin = new SQL(url, { max: 1 });
  await admin.unsafe(`CREATE FUNCTION slow_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(0.02); RETURN NEW; END $$;
    CREATE TRIGGER slow_row BEFORE INSERT ON usage_events FOR EACH ROW EXECUTE FUNCTION slow_row();`);
  const { url: relayed, relay } = await relayedUrl(url);
  const node = new PostgresStore(relayed, { max: 2, timeoutMs: 1000 });
  const { buffer, errors, tried } = bufferOn(node, 10);
  try {
    relay.freeze();
    const events = Array.from({ length: 60 }, (_, i) => usageEvent(org.id, key.id, { createdAt: HOUR + i }));
    buffer.record(events[0] as (typeof events)[0]);
    await buffer.flush();
    expect(errors).toHaveLength(1);
    for (const e of events.slice(1)) buffer.record(e);
    await buffer.flush();
    expect(buffer.stats()).toMatchObject({ pending: 60, failures: 2 });

    relay.thaw();
    // A few flushes at most (each new try of a hung pool's batch may meet a closed connection).
    for (let i = 0; i < 5 && buffer.stats().pending > 0; i++) await buffer.flush();
    expect(buffer.stats().pending).toBe(0);
    expect(Math.max(...tried)).toBeLessThanOrEqual(10);
    const rows = await direct.listUsageEvents(org.id);
    expect(rows.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(await direct.listUsageHourly(org.id, HOUR, HOUR + 3_600_000)).toMatchObject([{ requests: 60, costMicros: 6000 }]);
    expect((await direct.getApiKey(key.id))?.spentMicros).toBe(6000);
  } finally {
    await buffer.stop();
    await node.close();
    relay.close();
    await admin.close();
    await direct.close();
  }
}, 60_000);

test("a batch of a backlog whose commit stalls past the bound is counted once, and so is every batch after it", async () => {
  const { url, direct, org, key } = await usageDatabase(() => pg.createDatabase());
  // The second batch's commit stalls 1.5 s, past the 300 ms bound, once: a deferred trigger
  // on the batch's id record, counted by a sequence (which no rollback takes back).
  const admin = new SQL(url, { max: 1 });
  await admin.unsafe(`CREATE SEQUENCE flush_no;
    CREATE FUNCTION stall_second() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF nextval('flush_no') = 2 THEN PERFORM pg_sleep(1.5); END IF; RETURN NULL; END $$;
    CREATE CONSTRAINT TRIGGER stall_second AFTER INSERT ON usage_flushes DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION stall_second();`);
  const { url: relayed, relay } = await relayedUrl(url);
  const node = new PostgresStore(relayed, { max: 2, timeoutMs: 300 });
  const { buffer, errors, tried } = bufferOn(node, 10);
  try {
    const events = Array.from({ length: 35 }, (_, i) => usageEvent(org.id, key.id, { createdAt: HOUR + i }));
    for (const e of events) buffer.record(e);
    await buffer.flush();
    expect(errors).toHaveLength(1);
    expect(buffer.stats().pending).toBe(26);
    // Retried until it goes through: the retry waits on the stalled commit's id, then finds it.
    for (let i = 0; i < 40 && buffer.stats().pending > 0; i++) await buffer.flush();
    expect(buffer.stats()).toMatchObject({ pending: 0, refusedEvents: 0 });
    expect(tried.slice(0, 2)).toEqual([10, 10]);
    const rows = await direct.listUsageEvents(org.id);
    expect(rows.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(await direct.listUsageHourly(org.id, HOUR, HOUR + 3_600_000)).toMatchObject([{ requests: 35, costMicros: 3500 }]);
    expect((await direct.getApiKey(key.id))?.spentMicros).toBe(3500);
    const [flushes] = await admin.unsafe("SELECT count(*)::int AS n FROM usage_flushes");
    expect(flushes.n).toBe(4);
  } finally {
    await buffer.stop();
    await node.close();
    relay.close();
    await admin.close();
    await direct.close();
  }
}, 60_000);
