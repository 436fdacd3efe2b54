import { afterEach, expect, setSystemTime, test } from "bun:test";
import { NodeRegistry } from "../../../src/state/redis/node-registry.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";

const redis = redisPerFile();

afterEach(() => setSystemTime());

async function connection(): Promise<RedisConnection> {
  const conn = new RedisConnection(redis.url, { timeoutMs: 2000, reconnectEveryMs: 50 });
  redis.opened.push(conn);
  while (!conn.connected) await Bun.sleep(10);
  return conn;
}

function registry(conn: RedisConnection, id: string): NodeRegistry {
  const nodes = new NodeRegistry(conn, id, { everyMs: 60_000, staleAfterMs: 15_000 });
  redis.opened.push({ close: () => nodes.leave() });
  return nodes;
}

test("nodes whose clocks disagree by more than the stale window still count each other", async () => {
  const conn = await connection();
  const behind = registry(conn, `behind-${crypto.randomUUID()}`);
  const onTime = registry(conn, `on-time-${crypto.randomUUID()}`);
  // This node's clock runs 20 s behind the other's: more than the 15 s stale window.
  setSystemTime(new Date(Date.now() - 20_000));
  await behind.beat();
  setSystemTime();
  await onTime.beat();
  await behind.beat();
  expect(onTime.count()).toBe(2);
  expect(behind.count()).toBe(2);
});

test("a node that leaves is no longer counted; the count survives Redis going away", async () => {
  const conn = await connection();
  // Only this test's nodes: the file's other tests beat into the same set.
  await conn.send("DEL", ["gw:nodes"]);
  const ids = [1, 2, 3].map((i) => `n${i}-${crypto.randomUUID()}`);
  const [a, b, c] = ids.map((id) => registry(conn, id)) as [NodeRegistry, NodeRegistry, NodeRegistry];
  for (const n of [a, b, c]) await n.beat();
  await a.beat();
  expect(a.count()).toBe(3);
  await c.leave();
  await a.beat();
  expect(a.count()).toBe(2);
  redis.kill();
  await a.beat();
  expect(a.count()).toBe(2);
  await redis.restart();
}, 30_000);
