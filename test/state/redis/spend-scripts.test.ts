/**
 * The spend scripts on a real Redis, below the ledger: reservation marks carry a lease
 * on Redis's clock, a reservation sweeps the marks whose lease ran out (a bounded step
 * a call), and a settlement that comes after its mark was swept adds the real cost once.
 */
import { expect, test } from "bun:test";
import { monthOf } from "../../../src/state/spend-ledger.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { LOAD, RENEW, RESERVE, SETTLE } from "../../../src/state/redis/spend-scripts.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { redisNow } from "../../support/spend-probes.ts";

const redis = redisPerFile();

const MONTH = monthOf(Date.now());
const DAY_MS = 86_400_000;

async function connect(): Promise<RedisConnection> {
  const conn = new RedisConnection(redis.url, { timeoutMs: 2000 });
  while (!conn.connected) await Bun.sleep(10);
  redis.opened.push(conn);
  return conn;
}

let n = 0;
/** A key's totals (loaded: nothing spent) and an organization hash no other test uses. */
async function loaded(conn: RedisConnection): Promise<[string, string]> {
  n++;
  const keys: [string, string] = [`gw:spend:key:scripts-${n}-${process.pid}`, `gw:spend:org:scripts-${n}-${process.pid}`];
  await conn.eval(LOAD, [keys[0]], [MONTH, 0, 0, DAY_MS]);
  return keys;
}

/** A reservation on the key's lifetime cap (1,000,000 micros) alone: its answer {status, which, used, swept}. */
const reserve = (conn: RedisConnection, keys: [string, string], id: string, estimate: number, leaseMs: number, ttlMs = DAY_MS) =>
  conn.eval(RESERVE, keys, [MONTH, estimate, 1_000_000, -1, -1, 1, 0, ttlMs, id, leaseMs]) as Promise<[string, string, number, number]>;

const settle = (conn: RedisConnection, keys: [string, string], id: string, estimate: number, actual: number) =>
  conn.eval(SETTLE, keys, [MONTH, estimate, actual, 1, 0, DAY_MS, id, "", 1]);

const renew = (conn: RedisConnection, keys: [string, string], id: string, leaseMs: number) => conn.eval(RENEW, keys, [leaseMs, 1, 0, id]);

async function totals(conn: RedisConnection, key: string): Promise<{ res: number; life: number; mon: number }> {
  const [res, life, mon] = (await conn.send("HMGET", [key, "res", "life", "mon"])) as string[];
  return { res: Number(res), life: Number(life), mon: Number(mon) };
}

/** Waits until Redis's clock has passed `ms` (the lease of a mark written before). */
async function redisPassed(conn: RedisConnection, ms: number): Promise<void> {
  while ((await redisNow(conn)) <= ms) await Bun.sleep(5);
}

test("a settlement after its mark was swept adds the real cost once and leaves the reserved total alone", async () => {
  const conn = await connect();
  const keys = await loaded(conn);
  const start = await redisNow(conn);
  expect(await reserve(conn, keys, "a", 60_000, 50)).toEqual(["ok", expect.any(String), 0, 0]);
  await redisPassed(conn, start + 50);
  // The next reservation sweeps the lapsed one: its 60,000 are given back.
  expect(await reserve(conn, keys, "b", 10_000, DAY_MS)).toEqual(["ok", expect.any(String), 0, 1]);
  expect(await totals(conn, keys[0])).toEqual({ res: 10_000, life: 0, mon: 0 });
  // Its node settles late: the real cost is charged, the reservation is not given back twice.
  expect(await settle(conn, keys, "a", 60_000, 25_000)).toBe(1);
  expect(await totals(conn, keys[0])).toEqual({ res: 10_000, life: 25_000, mon: 25_000 });
  // Sent again (a retry after a lost answer): nothing more.
  expect(await settle(conn, keys, "a", 60_000, 25_000)).toBe(0);
  expect(await settle(conn, keys, "b", 10_000, 10_000)).toBe(1);
  expect(await totals(conn, keys[0])).toEqual({ res: 0, life: 35_000, mon: 35_000 });
  expect(await conn.send("HKEYS", [keys[0]])).not.toContain("x:a");
});

test("a renewed mark outlives its first lease; a lapsed one is swept, and renewing it then brings nothing back", async () => {
  const conn = await connect();
  const keys = await loaded(conn);
  const start = await redisNow(conn);
  expect((await reserve(conn, keys, "live", 70_000, 50))[0]).toBe("ok");
  expect((await reserve(conn, keys, "stopped", 1_000, 50))[0]).toBe("ok");
  // The live call's node renews its mark; the other's node has stopped.
  expect(await renew(conn, keys, "live", DAY_MS)).toBe(1);
  await redisPassed(conn, start + 50);
  const [status, , , swept] = await reserve(conn, keys, "probe", 1, DAY_MS);
  expect([status, swept]).toEqual(["ok", 1]);
  expect(await totals(conn, keys[0])).toEqual({ res: 70_001, life: 0, mon: 0 });
  expect(await renew(conn, keys, "stopped", DAY_MS)).toBe(0);
  expect(await conn.send("HEXISTS", [keys[0], "r:stopped"])).toBe(0);
});

test("a mark written before leases existed gets the totals' time to live, then is swept like any other", async () => {
  const conn = await connect();
  const keys = await loaded(conn);
  // A node of the earlier release reserved 40,000 and died: its mark holds the amount alone.
  await conn.send("HSET", [keys[0], "r:old", "40000", "res", "40000"]);
  const start = await redisNow(conn);
  expect(await reserve(conn, keys, "first", 1, 40, 500)).toEqual(["ok", expect.any(String), 0, 0]);
  const [amount, until] = String(await conn.send("HGET", [keys[0], "r:old"]))
    .split(":")
    .map(Number);
  expect(amount).toBe(40_000);
  expect(until).toBeGreaterThanOrEqual(start + 500);
  expect(await settle(conn, keys, "first", 1, 0)).toBe(1);
  await conn.send("PEXPIRE", [keys[0], String(DAY_MS)]);
  await redisPassed(conn, until as number);
  expect(await reserve(conn, keys, "second", 1, DAY_MS)).toEqual(["ok", expect.any(String), 0, 1]);
  expect(await totals(conn, keys[0])).toEqual({ res: 1, life: 0, mon: 0 });
});

test("the sweep takes a bounded step a call: hundreds of lapsed marks come back over several calls, exactly", async () => {
  const conn = await connect();
  const keys = await loaded(conn);
  const marks: string[] = [];
  for (let i = 0; i < 600; i++) marks.push(`r:dead-${i}`, "100:1"); // lapsed long ago
  await conn.send("HSET", [keys[0], ...marks, "res", "60000"]);
  const sweeps: number[] = [];
  while (sweeps.reduce((a, b) => a + b, 0) < 600 && sweeps.length < 100) {
    const [status, , , swept] = await reserve(conn, keys, `probe-${sweeps.length}`, 1, DAY_MS);
    expect(status).toBe("ok");
    sweeps.push(swept);
  }
  expect(sweeps[0]).toBeGreaterThan(0);
  expect(sweeps[0]).toBeLessThan(600);
  expect(sweeps.reduce((a, b) => a + b, 0)).toBe(600);
  // Only the probes are held now, one micro each.
  expect(await totals(conn, keys[0])).toEqual({ res: sweeps.length, life: 0, mon: 0 });
});

test("a reservation sweeps before it checks the caps: the room a dead node held is there for the call that asks", async () => {
  const conn = await connect();
  const keys = await loaded(conn);
  const start = await redisNow(conn);
  expect((await reserve(conn, keys, "dead", 1_000_000, 40))[0]).toBe("ok");
  expect((await reserve(conn, keys, "early", 1, 40))[0]).toBe("deny");
  await redisPassed(conn, start + 40);
  expect(await reserve(conn, keys, "after", 1_000_000, DAY_MS)).toEqual(["ok", expect.any(String), 0, 1]);
});
