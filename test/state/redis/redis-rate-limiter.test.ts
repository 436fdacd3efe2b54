import { expect, test } from "bun:test";
import { type RateDecision, TokenBucketLimiter } from "../../../src/state/rate-limiter.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { RedisRateLimiter } from "../../../src/state/redis/redis-rate-limiter.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";

const redis = redisPerFile();

async function connect(): Promise<RedisConnection> {
  const c = new RedisConnection(redis.url, { timeoutMs: 1000, reconnectEveryMs: 50 });
  redis.opened.push(c);
  while (!c.connected) await Bun.sleep(10);
  return c;
}

test("three nodes share one bucket: exactly the limit passes, however the calls interleave", async () => {
  const nodes = await Promise.all([connect(), connect(), connect()]);
  const limiters = nodes.map((c) => new RedisRateLimiter(c, { limit: 20, windowS: 3600, nodes: () => 3 }));
  const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => (limiters[i % 3] as RedisRateLimiter).take("key:shared")));
  expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
  const refused = decisions.find((d) => !d.allowed) as RateDecision;
  expect(refused).toMatchObject({ limit: 20, remaining: 0 });
  expect(refused.retryAfterS).toBeGreaterThanOrEqual(1);
  // Another bucket is untouched.
  expect((await (limiters[0] as RedisRateLimiter).take("key:other")).remaining).toBe(19);
});

test("decisions and headers equal the in-memory limiter's, refills included", async () => {
  let now = Date.UTC(2026, 0, 1, 12, 0, 0, 250);
  const clock = () => now;
  const shared = new RedisRateLimiter(await connect(), { limit: 5, windowS: 60, nodes: () => 1, now: clock });
  const local = new TokenBucketLimiter({ limit: 5, windowS: 60, now: clock });
  const steps = [0, 0, 0, 0, 0, 0, 5_000, 7_000, 1, 12_000, 0, 0, 61_000, 0];
  for (const [i, advance] of steps.entries()) {
    now += advance;
    const bucket = `key:same-${process.pid}`;
    expect({ step: i, ...(await shared.take(bucket)) }).toEqual({ step: i, ...local.take(bucket) });
    expect(shared.peek(bucket)).toEqual(local.peek(bucket));
  }
});

test("with Redis gone, each node falls back to its share of the limit; when it returns, the shared bucket serves again", async () => {
  const conn = await connect();
  const limiter = new RedisRateLimiter(conn, { limit: 9, windowS: 3600, nodes: () => 3 });
  expect((await limiter.take("key:outage")).remaining).toBe(8);
  redis.kill();
  const during: RateDecision[] = [];
  for (let i = 0; i < 4; i++) during.push(await limiter.take("key:outage"));
  expect(during.map((d) => d.allowed)).toEqual([true, true, true, false]);
  expect(during[0]?.limit).toBe(3);
  await redis.restart();
  while (!conn.connected) await Bun.sleep(20);
  const after = await limiter.take("key:outage");
  // A fresh Redis (no persistence): the bucket starts where this node last saw it (8 left), not full.
  expect(after).toMatchObject({ allowed: true, limit: 9, remaining: 7 });
}, 30_000);

test("a bucket lost with Redis's data (FLUSHALL) starts where a node last saw it, not full; one no node saw starts full", async () => {
  const [a, b] = [await connect(), await connect()];
  const onA = new RedisRateLimiter(a, { limit: 5, windowS: 3600, nodes: () => 2 });
  const onB = new RedisRateLimiter(b, { limit: 5, windowS: 3600, nodes: () => 2 });
  const used: RateDecision[] = [];
  for (let i = 0; i < 6; i++) used.push(await onA.take("key:flushed"));
  expect(used.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
  await a.send("FLUSHALL", []);
  expect(await onA.take("key:flushed")).toMatchObject({ allowed: false, remaining: 0 });
  // Node B never saw the bucket; A's take put it back in Redis, so B is refused as well.
  expect((await onB.take("key:flushed")).allowed).toBe(false);
  expect(await onB.take("key:never-seen")).toMatchObject({ allowed: true, remaining: 4 });
});
