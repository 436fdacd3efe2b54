/**
 * Rate-limit alerts on several nodes: a provider-reported state is the provider account's,
 * seen by every node in its own answers' headers, and each change into warning or critical
 * is announced once between the nodes on one Redis, by the node whose newer view made it.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../../src/domain/ids.ts";
import { createLogger } from "../../../src/lib/log.ts";
import { SecretBox } from "../../../src/lib/secret-box.ts";
import { AlertChecker, RATE_LIMIT_KIND } from "../../../src/services/alerts/alert-checker.ts";
import { Notifier } from "../../../src/services/alerts/notifier.ts";
import { orgLimitStates } from "../../../src/services/rate-limits/org-rate-status.ts";
import { MemoryLimitStates } from "../../../src/state/limit-states.ts";
import { ProviderRateUsage } from "../../../src/state/provider-rate-usage.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { RedisLimitStates } from "../../../src/state/redis/redis-limit-states.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import { providerConfigRecord } from "../../support/records.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { waitFor } from "../../support/spend-probes.ts";

const redis = redisPerFile();
const box = new SecretBox(new Uint8Array(32).fill(7));
const t0 = Date.UTC(2026, 10, 28, 12);
let store: SqliteStore;
let orgId: string;
let configId: string;

/** One gateway node: its own Redis connection, its own counts of what the provider said, its own alert check. */
interface Node {
  conn: RedisConnection;
  usage: ProviderRateUsage;
  checker: AlertChecker;
  at: number;
}

async function node(): Promise<Node> {
  const conn = new RedisConnection(redis.url, { timeoutMs: 2000, reconnectEveryMs: 50 });
  redis.opened.push(conn);
  while (!conn.connected) await Bun.sleep(10);
  const usage = new ProviderRateUsage();
  const n: Node = { conn, usage, at: t0, checker: null as unknown as AlertChecker };
  const notifier = new Notifier({
    store,
    box,
    log: createLogger("silent"),
    delivery: { fetch: (u, i) => fetch(u, i), sleep: async () => {}, now: () => n.at, attempts: 1, backoffMs: 1, timeoutMs: 5000 },
  });
  n.checker = new AlertChecker({
    store,
    notifier,
    log: createLogger("silent"),
    now: () => n.at,
    rateLimits: (org) => orgLimitStates(store, usage, org, n.at),
    limitStates: new RedisLimitStates(conn, new MemoryLimitStates()),
  });
  return n;
}

/** The provider's answer to `n` at `at`: `remaining` of 100 requests left in a window that resets 30 s later. */
function answer(n: Node, at: number, remaining: number): void {
  n.usage.sent(
    configId,
    new Headers({
      "anthropic-ratelimit-requests-limit": "100",
      "anthropic-ratelimit-requests-remaining": String(remaining),
      "anthropic-ratelimit-requests-reset": new Date(at + 30_000).toISOString(),
    }),
    at,
  );
}

async function check(n: Node, at: number): Promise<void> {
  n.at = at;
  await n.checker.checkOrg(orgId);
}

const announced = async () =>
  (await store.listNotifications(orgId, 100))
    .filter((x) => x.kind === RATE_LIMIT_KIND)
    .reverse()
    .map((x) => [x.body.previous, x.body.status]);

beforeEach(async () => {
  store = new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-rate-alerts-")), "gateway.db"));
  await store.migrate();
  orgId = newId("org");
  await store.createOrganization({ id: orgId, name: "Acme", tier: "enterprise", createdAt: 1 });
  const rec = providerConfigRecord(orgId, { provider: "anthropic", name: "anthropic-main" });
  configId = rec.id;
  await store.createProviderConfig(rec, 100);
});

afterEach(async () => {
  await store.close();
});

test("three nodes seeing the provider report the same warning announce it once", async () => {
  const nodes = await Promise.all([node(), node(), node()]);
  nodes.forEach((n, i) => answer(n, t0 + i * 100, 20));
  await Promise.all(nodes.map((n, i) => check(n, t0 + 1000 + i)));
  // Later checks of the same view announce nothing more.
  await Promise.all(nodes.map((n, i) => check(n, t0 + 2000 + i)));
  expect(await announced()).toEqual([["ok", "warning"]]);
});

test("limited, back under the limit, and limited again later is a second announcement, once; a node's older view changes nothing", async () => {
  const [a, b] = await Promise.all([node(), node()]);
  answer(a, t0, 20);
  answer(b, t0 + 50, 15);
  await check(a, t0 + 1000);
  await check(b, t0 + 1000);
  // The window refilled (its reset passed) and a's next answer says so; b has had no answer since.
  answer(a, t0 + 40_000, 90);
  await check(a, t0 + 41_000);
  // b's view (its last answer, before the refill) is older than a's: it neither ends nor repeats anything.
  await check(b, t0 + 20_000);
  // Limited again later, seen by both.
  answer(a, t0 + 60_000, 5);
  answer(b, t0 + 60_100, 4);
  await Promise.all([check(a, t0 + 61_000), check(b, t0 + 61_000)]);
  // A node whose last answer predates the newest view says "ok": nothing changes, and nothing is announced again.
  answer(b, t0 + 59_000, 90);
  await check(b, t0 + 62_000);
  await check(a, t0 + 63_000);
  expect(await announced()).toEqual([
    ["ok", "warning"],
    ["ok", "critical"],
  ]);
});

test("one node alone announces as before: every change into warning or critical", async () => {
  const a = await node();
  const seen: [number, number][] = [
    [95, 1],
    [20, 2],
    [18, 3],
    [5, 4],
    [6, 5],
    [90, 6],
    [20, 7],
  ];
  for (const [remaining, i] of seen) {
    answer(a, t0 + i * 1000, remaining);
    await check(a, t0 + i * 1000 + 500);
  }
  expect(await announced()).toEqual([
    ["ok", "warning"],
    ["warning", "critical"],
    ["ok", "warning"],
  ]);
});

test("Redis away: each node decides from its own memory, as a node alone", async () => {
  const [a, b] = await Promise.all([node(), node()]);
  redis.kill();
  await waitFor(async () => !a.conn.connected && !b.conn.connected);
  answer(a, t0, 20);
  answer(b, t0 + 50, 20);
  await check(a, t0 + 1000);
  await check(b, t0 + 1000);
  await check(a, t0 + 2000);
  expect(await announced()).toEqual([
    ["ok", "warning"],
    ["ok", "warning"],
  ]);
  await redis.restart();
}, 30_000);
