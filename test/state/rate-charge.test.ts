/**
 * A rate-limit charge held back for the spend reservation: carried in the reservation's
 * command (one Redis round trip for both), or taken alone once; never twice, never lost.
 * Against a real redis-server.
 */
import { expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { MemorySpendLedger } from "../../src/state/memory-spend-ledger.ts";
import type { DeferredCharge } from "../../src/state/rate-charge.ts";
import { RedisConnection } from "../../src/state/redis/redis-connection.ts";
import { RedisRateLimiter } from "../../src/state/redis/redis-rate-limiter.ts";
import { RedisSpendLedger } from "../../src/state/redis/redis-spend-ledger.ts";
import type { Reservation, SpendStore } from "../../src/state/spend-ledger.ts";
import { redisPerFile } from "../support/redis-per-file.ts";
import { freshCaps } from "../support/spend-caps.ts";

const redis = redisPerFile();

const CENT = 10_000;
const fresh = freshCaps;
const store: SpendStore = { keyLifetimeMicros: async () => 0, spentSince: async () => 0 };

/** A node: its connection (counting round trips), rate limiter and spend ledger. */
async function node(limit = 10) {
  const trips = { count: 0 };
  const conn = new RedisConnection(redis.url, { timeoutMs: 2000, reconnectEveryMs: 50, observe: () => trips.count++ });
  while (!conn.connected) await Bun.sleep(10);
  const limiter = new RedisRateLimiter(conn, { limit, windowS: 3600, nodes: () => 2 });
  const ledger = new RedisSpendLedger(conn, store, { failOpen: false, local: new MemorySpendLedger(store), retryEveryMs: 50 });
  redis.opened.push(conn, ledger);
  return { conn, limiter, ledger, trips };
}

const deferred = (limiter: RedisRateLimiter, bucket: string): DeferredCharge => {
  const charge = limiter.defer(bucket);
  if (!charge) throw new Error("expected the charge to be held back");
  return charge;
};

test("a capped call's reservation carries its rate-limit take: one round trip for both, the token taken once", async () => {
  const { limiter, ledger, trips } = await node();
  const caps = fresh({ orgMonthlyCents: 100 });
  const bucket = `key:carried-${process.pid}`;

  // First call: the totals are not in Redis yet (carried take, load, reservation): the token is still taken once.
  const first = deferred(limiter, bucket);
  const a = (await ledger.reserve(caps, () => 1_000, first)) as Reservation;
  expect(first.pending).toBe(false);
  expect(await first.decision()).toMatchObject({ allowed: true, limit: 10, remaining: 9 });

  trips.count = 0;
  const second = deferred(limiter, bucket);
  const b = (await ledger.reserve(caps, () => 1_000, second)) as Reservation;
  expect(trips.count).toBe(1);
  expect(await second.decision()).toMatchObject({ allowed: true, remaining: 8 });
  // Nothing carried it twice: asking again neither takes nor sends.
  expect(second.carry()).toBeNull();
  expect((await second.decision()).remaining).toBe(8);
  expect(trips.count).toBe(1);

  // Both reservations hold: 100 cents minus 2,000 µ$ is what remains.
  const refused = await (ledger.reserve(caps, () => 100 * CENT - 1_999) as Promise<Reservation>).catch((e) => e);
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused).toMatchObject({ status: 429, code: "monthly_cap_exceeded" });
  a.release();
  b.release();
});

test("a take refused inside the reservation's command reserves nothing", async () => {
  const one = await node(1);
  const other = await node(1);
  const caps = fresh({ keyLifetimeCents: 1 });
  const bucket = `key:refused-${process.pid}`;
  // Another node spends the bucket's only token; this node has not seen it, so it holds its charge back.
  expect((await other.limiter.take(bucket)).allowed).toBe(true);
  const charge = deferred(one.limiter, bucket);
  const reservation = (await one.ledger.reserve(caps, () => CENT, charge)) as Reservation;
  const decision = await charge.decision();
  expect(decision).toMatchObject({ allowed: false, remaining: 0 });
  expect(decision.retryAfterS).toBeGreaterThanOrEqual(1);
  reservation.release();
  // The whole cap is still free: the refused call held none of it.
  const whole = (await one.ledger.reserve(caps, () => CENT)) as Reservation;
  whole.release();
  // And a bucket seen empty is charged at once again, before the request is read.
  expect(one.limiter.defer(bucket)).toBeNull();
});

test("an uncapped call leaves the charge pending; it is then taken alone, once", async () => {
  const { limiter, ledger, trips } = await node();
  const charge = deferred(limiter, `key:alone-${process.pid}`);
  trips.count = 0;
  const reservation = (await ledger.reserve(fresh(), () => 1_000, charge)) as Reservation;
  expect(trips.count).toBe(0);
  expect(charge.pending).toBe(true);
  const [x, y] = await Promise.all([charge.decision(), charge.decision()]);
  expect(x).toBe(y);
  expect(x).toMatchObject({ allowed: true, remaining: 9 });
  expect(trips.count).toBe(1);
  expect(charge.carry()).toBeNull();
  reservation.release();
});

test("Redis gone after the charge was held back: the take falls back to this node's share and the capped call gets 503", async () => {
  const { conn, limiter, ledger } = await node(10);
  const charge = deferred(limiter, `key:outage-${process.pid}`);
  redis.kill();
  while (conn.connected) await Bun.sleep(10);
  const refused = await (ledger.reserve(fresh({ orgMonthlyCents: 100 }), () => 1_000, charge) as Promise<Reservation>).catch((e) => e);
  expect(refused).toMatchObject({ status: 503, code: "service_unavailable" });
  // Two nodes seen: this node's share is half the limit.
  expect(await charge.decision()).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
  await redis.restart();
}, 30_000);
