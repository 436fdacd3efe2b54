import { expect, test } from "bun:test";
import { RedisChangeBus } from "../../../src/state/redis/redis-change-bus.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { startTcpRelay } from "../../support/tcp-relay.ts";

const redis = redisPerFile();

/** A node's caches, as the bus sees them: what its listener was told. */
function node() {
  const seen: string[] = [];
  const conn = new RedisConnection(redis.url, { timeoutMs: 1000, reconnectEveryMs: 50 });
  const bus = new RedisChangeBus(conn, { resyncEveryMs: 50 });
  bus.subscribe((c) => seen.push(c.type === "key" ? `key ${c.keyHash}` : c.type === "all" ? "all" : `${c.type} ${c.orgId}`));
  redis.opened.push(bus, conn);
  return { conn, bus, seen };
}

async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

test("a change published on one node reaches its own listeners before publish returns, and every other node's", async () => {
  const [a, b, c] = [node(), node(), node()];
  await Promise.all([a, b, c].map((n) => n.bus.start()));
  while (!a.conn.connected) await Bun.sleep(10);
  a.bus.publish({ type: "key", keyHash: "h1" });
  expect(a.seen).toContain("key h1");
  a.bus.publish({ type: "providers", orgId: "org_1" });
  a.bus.publish({ type: "preferences", orgId: "org_2" });
  for (const n of [b, c]) await until(() => n.seen.includes("preferences org_2"));
  expect(b.seen).toEqual(["key h1", "providers org_1", "preferences org_2"]);
  expect(c.seen).toEqual(b.seen);
});

test("losing the subscription clears the caches; getting it back clears them again, then changes flow as before", async () => {
  const [a, b] = [node(), node()];
  await Promise.all([a.bus.start(), b.bus.start()]);
  redis.kill();
  await until(() => b.seen.includes("all") && !b.bus.isSubscribed);
  await redis.restart();
  await until(() => b.bus.isSubscribed && a.bus.isSubscribed && a.conn.connected);
  const resyncs = b.seen.filter((s) => s === "all").length;
  expect(resyncs).toBeGreaterThanOrEqual(2);
  a.bus.publish({ type: "key", keyHash: "after" });
  await until(() => b.seen.includes("key after"));
}, 30_000);

test("a change whose publish failed on one node is sent again once Redis takes it, while the other nodes stayed subscribed", async () => {
  const relay = await startTcpRelay(redis.port);
  redis.opened.push(relay);
  const b = node();
  const seenByA: string[] = [];
  const aConn = new RedisConnection(`redis://127.0.0.1:${relay.port}`, { timeoutMs: 300, reconnectEveryMs: 50 });
  const aBus = new RedisChangeBus(aConn, { resyncEveryMs: 50 });
  aBus.subscribe((c) => seenByA.push(c.type));
  redis.opened.push(aBus, aConn);
  await Promise.all([aBus.start(), b.bus.start()]);
  await until(() => aConn.connected);
  relay.cut();
  await until(() => !aConn.connected);
  // Node A revokes a key while only its own link to Redis is down: B's subscription never dropped.
  await aBus.publish({ type: "key", keyHash: "revoked" });
  expect(seenByA).toContain("key");
  expect(aBus.unsentChanges).toBe(1);
  expect(b.bus.isSubscribed).toBe(true);
  relay.restore();
  await until(() => b.seen.includes("key revoked"));
  await until(() => aBus.unsentChanges === 0);
  // B heard it as the revocation itself, not as a resync of everything.
  expect(b.seen).not.toContain("all");
}, 30_000);

test("a subscription that goes silent without its socket closing is taken for lost: the node drops its caches, then subscribes afresh", async () => {
  const relay = await startTcpRelay(redis.port);
  redis.opened.push(relay);
  const a = node();
  const seenByB: string[] = [];
  const bConn = new RedisConnection(`redis://127.0.0.1:${relay.port}`, { timeoutMs: 300, reconnectEveryMs: 50 });
  const bBus = new RedisChangeBus(bConn, { resyncEveryMs: 50, silentAfterMs: 400 });
  bBus.subscribe((c) => seenByB.push(c.type === "key" ? `key ${c.keyHash}` : c.type));
  redis.opened.push(bBus, bConn);
  await Promise.all([a.bus.start(), bBus.start()]);
  relay.freeze();
  // Node A revokes a key; B's frozen subscription never hears it, and its socket reports nothing.
  await a.bus.publish({ type: "key", keyHash: "unheard" });
  await until(() => seenByB.includes("all"));
  expect(seenByB).not.toContain("key unheard");
  expect(bBus.isSubscribed).toBe(false);
  relay.thaw();
  await until(() => bBus.isSubscribed);
  await a.bus.publish({ type: "key", keyHash: "heard" });
  await until(() => seenByB.includes("key heard"));
}, 30_000);

test("a node that stops cleanly sends the changes it still holds before it goes", async () => {
  const relay = await startTcpRelay(redis.port);
  redis.opened.push(relay);
  const b = node();
  const aConn = new RedisConnection(`redis://127.0.0.1:${relay.port}`, { timeoutMs: 300, reconnectEveryMs: 50 });
  // No resend before the stop: the timer's period is longer than the test.
  const aBus = new RedisChangeBus(aConn, { resyncEveryMs: 600_000 });
  redis.opened.push(aConn);
  await Promise.all([aBus.start(), b.bus.start()]);
  relay.cut();
  await until(() => !aConn.connected);
  await aBus.publish({ type: "providers", orgId: "org_stopping" });
  expect(aBus.unsentChanges).toBe(1);
  relay.restore();
  await until(() => aConn.connected);
  await aBus.close();
  await until(() => b.seen.includes("providers org_stopping"));
}, 30_000);
