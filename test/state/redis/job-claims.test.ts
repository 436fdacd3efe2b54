import { expect, test } from "bun:test";
import { JobClaims } from "../../../src/state/redis/job-claims.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { waitFor } from "../../support/spend-probes.ts";

const redis = redisPerFile();

async function node(i: number): Promise<{ conn: RedisConnection; jobs: JobClaims }> {
  const conn = new RedisConnection(redis.url, { timeoutMs: 2000, reconnectEveryMs: 50 });
  redis.opened.push(conn);
  while (!conn.connected) await Bun.sleep(10);
  return { conn, jobs: new JobClaims(conn, `node-${i}`) };
}

test("ten nodes whose hourly timers fire together: one runs the job, the others skip it until the period lapses", async () => {
  const nodes = await Promise.all(Array.from({ length: 10 }, (_, i) => node(i)));
  const job = `prune-${crypto.randomUUID()}`;
  const runs = await Promise.all(nodes.map((n) => n.jobs.claim(job, 60_000)));
  expect(runs.filter(Boolean)).toHaveLength(1);
  // Another job is claimed on its own.
  expect(await nodes[3]!.jobs.claim(`${job}-other`, 60_000)).toBe(true);
  // A short period lapses, and the next node to fire claims the next run.
  const brief = `brief-${crypto.randomUUID()}`;
  expect(await nodes[0]!.jobs.claim(brief, 50)).toBe(true);
  await waitFor(async () => nodes[1]!.jobs.claim(brief, 60_000));
});

test("Redis away: every node runs the job (idempotent deletes), rather than none", async () => {
  const { conn, jobs } = await node(99);
  redis.kill();
  await waitFor(async () => !conn.connected);
  expect(await jobs.claim(`prune-${crypto.randomUUID()}`, 60_000)).toBe(true);
  await redis.restart();
}, 30_000);
