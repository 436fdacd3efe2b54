import { expect, test } from "bun:test";
import { RedisConnection, RedisUnavailable } from "../../../src/state/redis/redis-connection.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";

const redis = redisPerFile();

async function connect(timeoutMs: number): Promise<RedisConnection> {
  const c = new RedisConnection(redis.url, { timeoutMs, reconnectEveryMs: 50 });
  redis.opened.push(c);
  while (!c.connected) await Bun.sleep(10);
  return c;
}

/** A synchronous task that holds the event loop, as a long request or a first-time compilation does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

test("an answer that arrived while this process was busy past the deadline is read, not taken for a slow Redis", async () => {
  const conn = await connect(200);
  for (const stallMs of [230, 260, 290, 320, 450]) {
    const answers = Array.from({ length: 20 }, () => conn.send("PING", []));
    // Redis answers within a millisecond; the answers wait in the socket while the loop is held.
    busy(stallMs);
    expect(await Promise.all(answers)).toEqual(Array(20).fill("PONG"));
  }
});

test("a Redis that does not answer is given up after the deadline, within a quarter more, and the connection serves again after", async () => {
  const conn = await connect(200);
  const admin = await connect(2000);
  await admin.send("CLIENT", ["PAUSE", "600", "ALL"]);
  const started = performance.now();
  const err = (await conn.send("PING", []).catch((e) => e)) as Error;
  const waited = performance.now() - started;
  expect(err).toBeInstanceOf(RedisUnavailable);
  expect(err.message).toContain("no answer to PING within 200 ms");
  expect(waited).toBeGreaterThanOrEqual(199);
  // Two sweeps of 25 ms past the deadline, and room for this machine's scheduling.
  expect(waited).toBeLessThan(400);
  await Bun.sleep(500);
  expect(await conn.send("PING", [])).toBe("PONG");
});

test("a command given a longer deadline (a node's start) waits through a pause that a call's deadline gives up on", async () => {
  const conn = await connect(200);
  const admin = await connect(2000);
  await admin.send("CLIENT", ["PAUSE", "400", "ALL"]);
  const [call, start] = await Promise.all([conn.send("PING", []).catch((e) => e), conn.send("PING", [], 3000)]);
  expect(call).toBeInstanceOf(RedisUnavailable);
  expect(start).toBe("PONG");
});

test("a script's own error is passed on as it is, not as Redis being away", async () => {
  const conn = await connect(1000);
  await conn.send("SET", ["gw:test:text", "x"]);
  const err = (await conn.send("EVAL", ["return redis.call('INCR', KEYS[1])", "1", "gw:test:text"]).catch((e) => e)) as Error;
  expect(err).toBeInstanceOf(Error);
  expect(err).not.toBeInstanceOf(RedisUnavailable);
  expect(err.message).toContain("not an integer");
});

test("a Redis flushed without a reconnect (FLUSHALL) gets a data mark again, and the node sees the new one", async () => {
  const conn = await connect(1000);
  while (conn.dataEpoch === null) await Bun.sleep(10);
  const before = conn.dataEpoch;
  await conn.send("FLUSHALL", []);
  // The mark is read again every five watchdog ticks (50 ms each here) while connected.
  while (conn.dataEpoch === before) await Bun.sleep(20);
  expect(await conn.send("GET", ["gw:epoch"])).toBe(conn.dataEpoch);
  expect(conn.dataEpoch).not.toBeNull();
});
