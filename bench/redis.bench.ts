/**
 * What one request's Redis work costs this process's CPU, in process against a private
 * redis-server on loopback (its own CPU is not counted): Bun's client alone, the
 * connection with its deadline, and the rate limiter's and spend ledger's calls as a
 * request makes them (uncapped, and a capped call's reservation and settlement). 50
 * callers at once, as the load's 50 connections; the variants run interleaved, several
 * rounds, and each prints its median CPU µs per operation.
 *
 *   bun bench/redis.bench.ts [--seconds 2] [--rounds 5] [--callers 50]
 */
import { parseArgs } from "node:util";
import { RedisConnection } from "../src/state/redis/redis-connection.ts";
import { RedisRateLimiter } from "../src/state/redis/redis-rate-limiter.ts";
import { RedisSpendLedger } from "../src/state/redis/redis-spend-ledger.ts";
import { startRedis } from "../test/support/servers.ts";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "2" },
    rounds: { type: "string", default: "5" },
    callers: { type: "string", default: "50" },
  },
});
/** 50 callers share writes (commands of one tick go out together); 1 caller pays a write and a read per command. */
const CALLERS = Number(args.callers);

const redis = await startRedis();
const conn = new RedisConnection(redis.url, { timeoutMs: 250 });
await conn.client.connect();
await conn.loadScripts();
const limiter = new RedisRateLimiter(conn, { limit: 1_000_000_000, windowS: 1, nodes: () => 1 });
const ledger = new RedisSpendLedger(
  conn,
  { keyLifetimeMicros: async () => 0, spentSince: async () => 0 },
  { failOpen: false, local: { reserve: () => ({ settle() {}, release() {} }) } },
);
const uncapped = { orgId: "org-1", keyId: "key-1", keyLifetimeCents: null, keyMonthlyCents: null, orgMonthlyCents: null };
/** Caps so high no call is refused: the reservation's script and its settlement's, every call. */
const capped = { ...uncapped, keyLifetimeCents: 1e12, orgMonthlyCents: 1e12 };

const variants: Record<string, () => Promise<unknown>> = {
  "client.send PING": () => conn.client.send("PING", []),
  "connection.send PING (deadline)": () => conn.send("PING", []),
  "rate limit take (1 EVALSHA)": async () => limiter.take("key:key-1"),
  "request: take + uncapped settle": async () => {
    await limiter.take("key:key-1");
    const r = await ledger.reserve(uncapped, () => 100);
    r.settle(1234);
  },
  "capped: reserve + settle (2 EVALSHA)": async () => {
    const r = await ledger.reserve(capped, () => 100);
    r.settle(50);
  },
};

async function measure(op: () => Promise<unknown>, seconds: number): Promise<{ cpuMicros: number; ops: number }> {
  const until = performance.now() + seconds * 1000;
  let ops = 0;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < until) {
        await op();
        ops++;
      }
    }),
  );
  // Settlements are sent after the answer: let the last ones land inside the measurement.
  await ledger.close().catch(() => {});
  const used = process.cpuUsage(cpu);
  return { cpuMicros: (used.user + used.system) / ops, ops };
}

const results = new Map<string, number[]>();
try {
  for (const op of Object.values(variants)) await measure(op, 0.5);
  for (let round = 0; round < Number(args.rounds); round++)
    for (const [name, op] of Object.entries(variants)) {
      const r = await measure(op, Number(args.seconds));
      results.set(name, [...(results.get(name) ?? []), r.cpuMicros]);
    }
} finally {
  conn.close();
  await redis.stop();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, xs] of results)
  console.log(
    `${name.padEnd(36)} ${median(xs).toFixed(1).padStart(6)} µs CPU/op  (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`,
  );
