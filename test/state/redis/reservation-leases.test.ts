/**
 * Reservation leases across nodes on a real Redis: a node renews the marks of its calls
 * in flight, so a node that dies (or stops renewing) leaves nothing held for long: the
 * next reservation on those totals gives its marks back, and a settlement that still
 * comes is charged once. Short leases here; the nodes' clocks never decide.
 */
import { expect, test } from "bun:test";
import { ApiError } from "../../../src/lib/errors.ts";
import { MemorySpendLedger } from "../../../src/state/memory-spend-ledger.ts";
import type { Reservation, SpendStore } from "../../../src/state/spend-ledger.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { RedisSpendLedger } from "../../../src/state/redis/redis-spend-ledger.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { freshCaps } from "../../support/spend-caps.ts";
import { fits, outcome, redisNow, waitFor } from "../../support/spend-probes.ts";

const redis = redisPerFile();

const store: SpendStore = { keyLifetimeMicros: async () => 0, spentSince: async () => 0 };

async function node(leaseMs: number) {
  const conn = new RedisConnection(redis.url, { timeoutMs: 2000 });
  while (!conn.connected) await Bun.sleep(10);
  const ledger = new RedisSpendLedger(conn, store, { failOpen: false, local: new MemorySpendLedger(store), leaseMs });
  redis.opened.push(conn, ledger);
  return { conn, ledger };
}

test("a node that dies mid-call leaves its reservation held no longer than its lease: the cap has its room again", async () => {
  const [a, b] = await Promise.all([node(300), node(300)]);
  const caps = freshCaps({ keyLifetimeCents: 10 }); // 100,000 micros
  expect(await outcome(a.ledger.reserve(caps, () => 100_000))).not.toBeInstanceOf(ApiError);
  expect(await fits(b.ledger, caps, 1)).toBe(false);
  // Node A dies with the call in flight: nothing renews or settles its reservation again.
  a.conn.close();
  await waitFor(() => fits(b.ledger, caps, 100_000));
  expect(b.ledger.stats().expiredReservations).toBe(1);
  expect(await fits(b.ledger, caps, 100_001)).toBe(false);
});

test("a settlement that comes after its reservation was swept is charged once, and the reserved total never goes below zero", async () => {
  const [a, b] = await Promise.all([node(300), node(300)]);
  const caps = freshCaps({ keyLifetimeCents: 10 });
  const late = (await a.ledger.reserve(caps, () => 60_000)) as Reservation;
  // Node A stops renewing (stalled, or cut off from Redis for a whole lease) but lives on.
  await a.ledger.close();
  await waitFor(() => fits(b.ledger, caps, 100_000));
  late.settle(30_000);
  await waitFor(async () => !(await fits(b.ledger, caps, 70_001)));
  expect(await fits(b.ledger, caps, 70_000)).toBe(true);
  const [res, life] = (await b.conn.send("HMGET", [`gw:spend:key:${caps.keyId}`, "res", "life"])) as string[];
  expect({ res, life }).toEqual({ res: "0", life: "30000" });
});

test("a live call held for several leases is renewed, never swept, while other nodes reserve around it", async () => {
  const leaseMs = 1_500;
  const [a, b, c] = await Promise.all([node(leaseMs), node(leaseMs), node(leaseMs)]);
  const caps = freshCaps({ keyLifetimeCents: 10 });
  // A long stream on node A holds most of the cap; B and C keep reserving and settling beside it.
  const stream = (await a.ledger.reserve(caps, () => 90_000)) as Reservation;
  const until = (await redisNow(a.conn)) + 3 * leaseMs;
  while ((await redisNow(a.conn)) < until) {
    const calls = await Promise.all([b, c].map(({ ledger }) => outcome(ledger.reserve(caps, () => 5_000))));
    expect(calls.filter((r) => r instanceof ApiError)).toHaveLength(0);
    expect(await fits(b.ledger, caps, 5_001)).toBe(false);
    for (const r of calls) (r as Reservation).release();
    await Bun.sleep(50);
  }
  expect([a, b, c].map(({ ledger }) => ledger.stats().expiredReservations)).toEqual([0, 0, 0]);
  stream.settle(20_000);
  await waitFor(() => fits(c.ledger, caps, 80_000));
  expect(await fits(c.ledger, caps, 80_001)).toBe(false);
}, 30_000);

test("many calls reserving and settling at once on several nodes, each held past a lease, add up exactly", async () => {
  const leaseMs = 1_500;
  const nodes = await Promise.all([node(leaseMs), node(leaseMs), node(leaseMs)]);
  const caps = freshCaps({ keyLifetimeCents: 100 }); // 1,000,000 micros
  const held = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(nodes[i % 3]!.ledger.reserve(caps, () => 40_000))));
  expect(held.filter((r) => r instanceof ApiError)).toHaveLength(5); // 25 × 40,000 fill the cap
  const start = await redisNow(nodes[0]!.conn);
  while ((await redisNow(nodes[0]!.conn)) < start + 2 * leaseMs) await Bun.sleep(50);
  for (const r of held) if (!(r instanceof ApiError)) r.settle(7_000);
  // 25 × 7,000 = 175,000 spent, nothing left reserved.
  await waitFor(() => fits(nodes[1]!.ledger, caps, 825_000));
  expect(await fits(nodes[2]!.ledger, caps, 825_001)).toBe(false);
  expect(nodes.map(({ ledger }) => ledger.stats().expiredReservations)).toEqual([0, 0, 0]);
}, 30_000);
