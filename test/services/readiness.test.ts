/**
 * Readiness over a Postgres gone silent (a TCP relay that keeps the connections open and
 * carries nothing): the check answers "not ready" within the store's bound, so a load
 * balancer drains the node, and "ready" again once the database answers.
 */
import { afterAll, expect, test } from "bun:test";
import { storeReachable } from "../../src/services/readiness.ts";
import { PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { postgresPerFile } from "../support/postgres-per-file.ts";
import { relayedUrl, type TcpRelay } from "../support/tcp-relay.ts";

const pg = postgresPerFile();
let relay: TcpRelay | null = null;
afterAll(() => relay?.close());

test("a database that stops answering makes the node not ready until it answers again", async () => {
  const relayed = await relayedUrl(await pg.createDatabase());
  relay = relayed.relay;
  const store = new PostgresStore(relayed.url, { max: 2, timeoutMs: 300 });
  try {
    await store.migrate();
    expect(await storeReachable({ store })).toBe(true);
    relay.freeze();
    expect(await storeReachable({ store })).toBe(false);
    // Still silent: the next check is bounded as well, not queued behind the first.
    expect(await storeReachable({ store })).toBe(false);
    relay.thaw();
    expect(await storeReachable({ store })).toBe(true);
  } finally {
    await store.close();
  }
}, 60_000);
