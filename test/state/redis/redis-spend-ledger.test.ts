import { expect, test } from "bun:test";
import { ApiError } from "../../../src/lib/errors.ts";
import { MemorySpendLedger } from "../../../src/state/memory-spend-ledger.ts";
import type { Reservation, SpendStore } from "../../../src/state/spend-ledger.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { RedisSpendLedger } from "../../../src/state/redis/redis-spend-ledger.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { freshCaps } from "../../support/spend-caps.ts";
import { startTcpRelay } from "../../support/tcp-relay.ts";
import { fits, outcome, waitFor } from "../../support/spend-probes.ts";

const redis = redisPerFile();

const CENT = 10_000;
const fresh = freshCaps;
/** Spend already in the store, per key and per organization. */
const storeWith = (keyLifetime = 0, keyMonth = 0, orgMonth = 0): SpendStore => ({
  keyLifetimeMicros: async () => keyLifetime,
  spentSince: async (_org, keyId) => (keyId === null ? orgMonth : keyMonth),
});

async function node(store: SpendStore, opts: { failOpen?: boolean; timeoutMs?: number } = {}) {
  const conn = new RedisConnection(redis.url, { timeoutMs: opts.timeoutMs ?? 2000, reconnectEveryMs: 50 });
  while (!conn.connected) await Bun.sleep(10);
  const ledger = new RedisSpendLedger(conn, store, {
    failOpen: opts.failOpen ?? false,
    local: new MemorySpendLedger(store),
    retryEveryMs: 50,
  });
  redis.opened.push(conn, ledger);
  return { conn, ledger };
}

/** A node whose link to Redis passes a relay the test can cut and restore (test/support/tcp-relay.ts). */
async function relayedNode(store: SpendStore) {
  const relay = await startTcpRelay(redis.port);
  redis.opened.push(relay);
  const conn = new RedisConnection(`redis://127.0.0.1:${relay.port}`, { timeoutMs: 300, reconnectEveryMs: 50 });
  const ledger = new RedisSpendLedger(conn, store, {
    failOpen: false,
    local: new MemorySpendLedger(store),
    retryEveryMs: 50,
    uncappedEveryMs: 10,
  });
  redis.opened.push(conn, ledger);
  await waitFor(async () => conn.connected && conn.dataEpoch !== null);
  return { relay, conn, ledger };
}

test("sixty calls at once across three nodes reserve no more than the cap; settlements free what was not spent", async () => {
  const store = storeWith(10 * CENT);
  const nodes = await Promise.all([node(store), node(store), node(store)]);
  const caps = fresh({ keyLifetimeCents: 100 }); // 1,000,000 micros, 100,000 already spent
  const results = await Promise.all(Array.from({ length: 60 }, (_, i) => outcome(nodes[i % 3]!.ledger.reserve(caps, () => 300_000))));
  const granted = results.filter((r): r is Reservation => !(r instanceof ApiError));
  expect(granted).toHaveLength(3); // 100,000 + 3 × 300,000 = 1,000,000
  const refused = results.find((r) => r instanceof ApiError) as ApiError;
  expect(refused).toMatchObject({ status: 429, code: "spend_cap_exceeded" });
  expect(refused.message).toContain("(0 of 100 cents)");
  // Each call really cost a third of its estimate: 600,000 comes back.
  for (const r of granted) r.settle(100_000);
  await waitFor(async () => !((await outcome(nodes[0]!.ledger.reserve(caps, () => 600_000))) instanceof ApiError));
  expect(await outcome(nodes[1]!.ledger.reserve(caps, () => 1))).toBeInstanceOf(ApiError);
});

test("a settlement is applied once, however often it is called, and release gives the whole estimate back", async () => {
  const store = storeWith();
  const { ledger } = await node(store);
  const caps = fresh({ orgMonthlyCents: 10 }); // 100,000 micros
  const a = (await ledger.reserve(caps, () => 60_000)) as Reservation;
  expect(await outcome(ledger.reserve(caps, () => 60_000))).toMatchObject({ status: 429, code: "monthly_cap_exceeded" });
  a.settle(30_000);
  a.settle(30_000);
  a.release();
  await waitFor(async () => {
    const r = await outcome(ledger.reserve(caps, () => 70_000));
    if (r instanceof ApiError) return false;
    r.release();
    return true;
  });
  // 30,000 spent: 70,001 more does not fit.
  expect(await outcome(ledger.reserve(caps, () => 70_001))).toMatchObject({ status: 429, code: "monthly_cap_exceeded" });
});

test("the same 429 as one node's ledger: code, message and details", async () => {
  const store = storeWith(0, 40 * CENT, 0);
  const { ledger } = await node(store);
  const caps = fresh({ keyMonthlyCents: 50 });
  const shared = (await outcome(ledger.reserve(caps, () => 200_000))) as ApiError;
  const local = (await outcome(new MemorySpendLedger(store).reserve(caps, () => 200_000))) as ApiError;
  expect(shared).toBeInstanceOf(ApiError);
  expect({ status: shared.status, code: shared.code, message: shared.message, body: JSON.stringify(shared) }).toEqual({
    status: local.status,
    code: local.code,
    message: local.message,
    body: JSON.stringify(local),
  });
});

test("uncapped calls cost nothing to admit and still reach totals Redis holds", async () => {
  const store = storeWith();
  const { ledger } = await node(store);
  const capped = fresh({ keyLifetimeCents: 10 });
  const uncapped = { ...capped, keyLifetimeCents: null };
  ((await ledger.reserve(capped, () => 1)) as Reservation).release();
  const call = ledger.reserve(uncapped, () => {
    throw new Error("an uncapped call needs no estimate");
  }) as Reservation;
  call.settle(90_000);
  await waitFor(async () => !(await fits(ledger, capped, 20_000)));
  expect(await outcome(ledger.reserve(capped, () => 10_000))).not.toBeInstanceOf(ApiError);
});

test("the costs of many uncapped calls go to Redis together, a few commands, and add up exactly", async () => {
  const store = storeWith();
  let commands = 0;
  const conn = new RedisConnection(redis.url, { timeoutMs: 2000, observe: () => commands++ });
  while (!conn.connected) await Bun.sleep(10);
  const ledger = new RedisSpendLedger(conn, store, { failOpen: false, local: new MemorySpendLedger(store), uncappedEveryMs: 50 });
  redis.opened.push(conn, ledger);
  const capped = fresh({ keyLifetimeCents: 10 });
  ((await ledger.reserve(capped, () => 1)) as Reservation).release();
  await waitFor(async () => commands >= 3); // reserve, load, reserve again (and the release)
  await Bun.sleep(50);
  const before = commands;
  const uncapped = { ...capped, keyLifetimeCents: null };
  for (let i = 0; i < 200; i++) (ledger.reserve(uncapped, () => 0) as Reservation).settle(400);
  // 200 calls of 400: 80,000 of the 100,000 cap are spent, so 20,001 no longer fits and 20,000 does.
  await waitFor(async () => !(await fits(ledger, capped, 20_001)));
  expect(commands - before).toBeLessThan(10);
  expect(await outcome(ledger.reserve(capped, () => 20_000))).not.toBeInstanceOf(ApiError);
});

test("Redis down: capped calls get 503 service_unavailable (fail closed), or this node's own ledger with fail-open; uncapped calls pass", async () => {
  const store = storeWith();
  const closed = await node(store);
  const opened = await node(store, { failOpen: true });
  const caps = fresh({ keyLifetimeCents: 10 });
  redis.kill();
  await waitFor(async () => !closed.conn.connected && !opened.conn.connected);
  expect(await outcome(closed.ledger.reserve(caps, () => 1_000))).toMatchObject({ status: 503, code: "service_unavailable" });
  const viaLocal = await outcome(opened.ledger.reserve(caps, () => 60_000));
  expect(viaLocal).not.toBeInstanceOf(ApiError);
  expect(await outcome(opened.ledger.reserve(caps, () => 60_000))).toMatchObject({ status: 429, code: "spend_cap_exceeded" });
  const uncapped = closed.ledger.reserve(fresh(), () => 1) as Reservation;
  uncapped.settle(5);
  await redis.restart();
  await waitFor(async () => closed.conn.connected);
  expect(await outcome(closed.ledger.reserve(caps, () => 1_000))).not.toBeInstanceOf(ApiError);
}, 30_000);

test("a settlement that could not reach Redis is sent when it answers again, so the reservation is not left held", async () => {
  const store = storeWith();
  const { conn, ledger } = await node(store, { timeoutMs: 300 });
  const caps = fresh({ keyLifetimeCents: 10 });
  const r = (await ledger.reserve(caps, () => 100_000)) as Reservation; // the whole cap
  // Pause every write: the settlement times out, is queued, and goes again after the pause.
  const admin = new RedisConnection(redis.url, { timeoutMs: 2000 });
  redis.opened.push(admin);
  while (!admin.connected) await Bun.sleep(10);
  await admin.send("CLIENT", ["PAUSE", "800", "WRITE"]);
  r.settle(40_000);
  await waitFor(async () => ledger.stats().pendingSettlements > 0);
  await waitFor(async () => ledger.stats().pendingSettlements === 0 && conn.connected);
  await waitFor(async () => {
    const again = await outcome(ledger.reserve(caps, () => 60_000));
    if (again instanceof ApiError) return false;
    again.release();
    return true;
  });
  // Applied once, not twice: 40,000 spent, so 60,001 does not fit.
  expect(await outcome(ledger.reserve(caps, () => 60_001))).toMatchObject({ status: 429 });
}, 30_000);

test("an uncapped cost that waited while Redis restarted empty is not added to totals reloaded from the store, which count it already", async () => {
  // The store, as the usage flush keeps it: the uncapped call's cost reaches it while Redis is away.
  let orgMonth = 0;
  const store: SpendStore = { keyLifetimeMicros: async () => 0, spentSince: async (_org, keyId) => (keyId === null ? orgMonth : 0) };
  const { relay, conn: aConn, ledger: a } = await relayedNode(store);
  const b = await node(store);
  const caps = fresh();
  relay.cut();
  await waitFor(async () => !aConn.connected);
  (a.reserve(caps, () => 0) as Reservation).settle(60_000);
  orgMonth += 60_000;
  await waitFor(async () => a.stats().pendingSettlements === 1);
  redis.kill();
  // Gone before it starts again: a new server cannot bind the port the old one still holds.
  await waitFor(async () => !b.conn.connected);
  await redis.restart();
  await waitFor(async () => b.conn.connected);
  // Node B reads the organization's totals from the store into the new Redis: 60,000 spent.
  const capped = { ...caps, orgMonthlyCents: 10 };
  expect(await outcome(b.ledger.reserve(capped, () => 40_001))).toMatchObject({ status: 429, code: "monthly_cap_exceeded" });
  relay.restore();
  await waitFor(async () => a.stats().pendingSettlements === 0 && aConn.connected);
  expect(a.stats().forgottenSettlements).toBe(1);
  // Still 60,000, not 120,000: 40,000 fits.
  expect(await outcome(b.ledger.reserve(capped, () => 40_000))).not.toBeInstanceOf(ApiError);
}, 30_000);

test("an uncapped cost that waited through a node's own outage, Redis keeping its data, is still added to the totals", async () => {
  const store = storeWith();
  const { relay, conn: aConn, ledger: a } = await relayedNode(store);
  const b = await node(store);
  const caps = fresh();
  const capped = { ...caps, orgMonthlyCents: 10 };
  // The organization's totals are in Redis (0 spent) before node A loses its link.
  ((await b.ledger.reserve(capped, () => 1)) as Reservation).release();
  relay.cut();
  await waitFor(async () => !aConn.connected);
  (a.reserve(caps, () => 0) as Reservation).settle(60_000);
  await waitFor(async () => a.stats().pendingSettlements === 1);
  relay.restore();
  await waitFor(async () => a.stats().pendingSettlements === 0 && aConn.connected);
  expect(a.stats().forgottenSettlements).toBe(0);
  await waitFor(async () => !(await fits(b.ledger, capped, 40_001)));
  expect(await outcome(b.ledger.reserve(capped, () => 40_000))).not.toBeInstanceOf(ApiError);
}, 30_000);

/**
 * A call in flight when Redis lost its data: its reservation went with the data, and a
 * capped call on the new data read the totals from the store before this call ended (so
 * without its cost; the usage flush brings it there only after). Its settlement adds the
 * cost to those totals, once: with `answerLost`, the settlement's first send is held past
 * its deadline (it runs later) and sent again, which must add nothing more.
 */
async function inFlightThroughLoss(lose: (conn: RedisConnection) => Promise<void>, answerLost = false): Promise<void> {
  let orgMonth = 0;
  const store: SpendStore = { keyLifetimeMicros: async () => 0, spentSince: async (_org, keyId) => (keyId === null ? orgMonth : 0) };
  const { conn, ledger } = await node(store, { timeoutMs: 300 });
  const other = new RedisConnection(redis.url, { timeoutMs: 5_000, reconnectEveryMs: 50 });
  redis.opened.push(other);
  await waitFor(async () => conn.dataEpoch !== null && other.connected);
  const caps = fresh({ orgMonthlyCents: 10 }); // 100,000 micros
  const hash = `gw:spend:org:${caps.orgId}`;
  const running = (await ledger.reserve(caps, () => 30_000)) as Reservation;
  await lose(conn);
  await waitFor(async () => other.connected);
  await conn.loadScripts(); // the settlement then runs by SHA, in order with the PING below
  // Another call on the new data loads the organization's totals from the store: nothing spent yet.
  expect(await fits(ledger, caps, 100_000)).toBe(true);
  await waitFor(async () => (await conn.send("HGET", [hash, "res"])) === "0");
  if (answerLost) await conn.send("CLIENT", ["PAUSE", "1000", "WRITE"]);
  running.settle(60_000);
  orgMonth += 60_000; // the usage flush, after the call
  // A write of another client waits out the pause, past the settlement's deadline: it was given up and queued.
  if (answerLost) await other.send("SET", ["gw:test:after-pause", "1"], 5_000);
  await waitFor(async () => ledger.stats().pendingSettlements === 0);
  await conn.send("PING", []); // answered after every settlement sent before it
  expect(await conn.send("HGET", [hash, "mon"])).toBe("60000");
  expect(await fits(ledger, caps, 40_001)).toBe(false);
}

async function restartEmpty(conn: RedisConnection): Promise<void> {
  const before = conn.dataEpoch;
  redis.kill();
  await waitFor(async () => !conn.connected);
  await redis.restart();
  await waitFor(async () => conn.connected && conn.dataEpoch !== null && conn.dataEpoch !== before);
}

test("a call in flight while Redis restarts empty has its cost counted in the totals reloaded meanwhile", async () => {
  await inFlightThroughLoss(restartEmpty);
}, 30_000);

test("a call in flight while Redis is flushed (FLUSHALL, no reconnect) has its cost counted in the totals reloaded meanwhile", async () => {
  await inFlightThroughLoss(async (conn) => void (await conn.send("FLUSHALL", [])));
}, 30_000);

test("that cost is added once when the settlement's answer was lost and it is sent again", async () => {
  await inFlightThroughLoss(restartEmpty, true);
}, 30_000);
