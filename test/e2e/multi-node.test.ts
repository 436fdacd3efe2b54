/**
 * Three gateway processes on one Redis and one Postgres (private instances), traffic
 * spread over them with the official openai client: one rate limit, one spend cap,
 * revocations and provider changes seen by every node, every usage row kept; Redis
 * killed mid-traffic gives only the documented 503; a node killed with -9 leaves the
 * others serving.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import {
  removeDir,
  type RunningGateway,
  type RunningMock,
  runCli,
  startGateway,
  startMockProvider,
  tempDataDir,
} from "../support/gateway-process.ts";
import { ANTHROPIC_AT_MOCK, atMock, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from "../support/servers.ts";

let redis: RedisServer;
let pg: PostgresServer;
let mock: RunningMock;
let store: PostgresStore;
let nodes: RunningGateway[] = [];
let admin: string;
let orgId: string;
let env: Record<string, string>;

beforeAll(async () => {
  [redis, pg, mock] = await Promise.all([startRedis(), startPostgres(), startMockProvider()]);
  const databaseUrl = await pg.createDatabase();
  env = {
    GW_DATABASE_URL: databaseUrl,
    GW_REDIS_URL: redis.url,
    // Every node decrypts provider keys and hashes API keys alike: one master key.
    GW_MASTER_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"),
    GW_FLUSH_INTERVAL_MS: "50",
    GW_KEY_CACHE_TTL_S: "3600",
    // 1,200 a day: no whole token is credited back during the test, so the count is exact.
    GW_RATE_LIMIT_REQUESTS: "1200",
    GW_RATE_LIMIT_WINDOW_S: "86400",
    // This machine is shared and loaded: a stalled node must not pass for a slow Redis.
    GW_REDIS_TIMEOUT_MS: "2000",
  };
  const init = await runCli(["init", "--data", tempDataDir(), "--org", "Scale", "--email", "ops@scale.test", "--json"], env);
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  ({ apiKey: admin, orgId } = JSON.parse(init.stdout));
  nodes = await Promise.all([0, 1, 2].map(() => startGateway({ env })));
  store = new PostgresStore(databaseUrl, { max: 2 });
  const added = await nodes[0]!.op(admin, "provider.create", atMock(OPENAI_AT_MOCK, mock.url));
  expect(added.status).toBe(200);
}, 120_000);

afterAll(async () => {
  for (const n of nodes) {
    if (n.proc.exitCode === null && !n.proc.killed) await n.stop();
    removeDir(n.dataDir);
  }
  await store?.close();
  await Promise.all([mock?.stop(), redis?.stop(), pg?.stop()]);
});

async function newKey(name: string, caps: Record<string, number> = {}): Promise<{ id: string; key: string }> {
  const created = await nodes[0]!.op(admin, "org.service-account.create", { serviceAccountName: name, ...caps });
  expect(created.status).toBe(200);
  return created.body.data.apiKey;
}

const client = (node: RunningGateway, apiKey: string) => new OpenAI({ baseURL: `${node.url}/v1`, apiKey, maxRetries: 0 });
const ask = (node: RunningGateway, apiKey: string, model = "gpt-4o") =>
  client(node, apiKey).chat.completions.create({ model, max_tokens: 100, messages: [{ role: "user", content: "How much is this?" }] });
const statusOf = async (p: Promise<unknown>): Promise<{ status: number; code?: string }> => {
  try {
    await p;
    return { status: 200 };
  } catch (err) {
    const e = err as { status?: number; error?: { code?: string } };
    return { status: e.status ?? 0, code: e.error?.code };
  }
};

/** Usage events of one key in Postgres (from the hourly roll-ups, which a flush writes with its events). */
async function eventsOf(keyId: string): Promise<number> {
  const now = Date.now();
  const rows = await store.listUsageHourly(orgId, now - 2 * 3_600_000, now + 3_600_000);
  return rows.filter((r) => r.keyId === keyId).reduce((n, r) => n + r.requests, 0);
}

/** Waits until `expected` events of the key have reached Postgres (or a while passed), then counts them. */
async function settledEventsOf(keyId: string, expected: number): Promise<number> {
  for (let i = 0; i < 200 && (await eventsOf(keyId)) < expected; i++) await Bun.sleep(50);
  // One more flush interval: a row beyond the expected would show up now.
  await Bun.sleep(150);
  return eventsOf(keyId);
}

test("1,260 quick requests with one key across three nodes: exactly the limit's 200s", async () => {
  const { key } = await newKey("burst");
  const statuses: number[] = [];
  // 30 at a time, round-robin over the nodes.
  for (let i = 0; i < 1260; i += 30) {
    const batch = Array.from({ length: 30 }, (_, j) => statusOf(client(nodes[(i + j) % 3]!, key).models.list()));
    for (const r of await Promise.all(batch)) statuses.push(r.status);
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(1200);
  expect(statuses.filter((s) => s === 429)).toHaveLength(60);
  const res = await fetch(`${nodes[1]!.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(429);
  expect(res.headers.get("x-ratelimit-limit")).toBe("1200");
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}, 120_000);

test("60 concurrent priced calls across the nodes never take a key past its cap", async () => {
  const { id, key } = await newKey("capped", { spendCapCents: 1 });
  // Not retried: the first chat calls hold each node's event loop for a while, and a Redis
  // answer that waits in the socket meanwhile is read, not given up (redis-connection.ts).
  const results = await Promise.all(Array.from({ length: 60 }, (_, i) => statusOf(ask(nodes[i % 3]!, key))));
  const ok = results.filter((r) => r.status === 200).length;
  expect(ok).toBeGreaterThan(3);
  // Every other call is refused for the cap, and nothing else (the list names any stranger).
  expect(results.filter((r) => r.status !== 200 && !(r.status === 429 && r.code === "spend_cap_exceeded"))).toEqual([]);
  expect(await settledEventsOf(id, ok)).toBe(ok);
  // Each call reserved its maximum cost, so what was really spent stays within the cap.
  const spent = (await store.getApiKey(id))!.spentMicros;
  expect(spent).toBeGreaterThan(0);
  expect(spent).toBeLessThanOrEqual(10_000);
}, 60_000);

test("a key revoked on node A is refused on node B at its next request", async () => {
  const { id, key } = await newKey("to-revoke");
  const [a, b] = [nodes[0]!, nodes[1]!];
  expect((await statusOf(client(b, key).models.list())).status).toBe(200); // B now holds the key in memory
  expect((await a.op(admin, "org.api-key.revoke", { keyId: id, reason: "leaked" })).status).toBe(200);
  expect(await statusOf(client(b, key).models.list())).toMatchObject({ status: 401 });
});

test("a provider added on node B serves on node C, which had the organization's providers in memory", async () => {
  const { key } = await newKey("anthropic-user");
  const [b, c] = [nodes[1]!, nodes[2]!];
  expect(await statusOf(ask(c, key, "claude-haiku-4-5"))).toEqual({ status: 400, code: "provider_not_configured" });
  const added = await b.op(admin, "provider.create", atMock(ANTHROPIC_AT_MOCK, mock.url));
  expect(added.status).toBe(200);
  expect(await statusOf(ask(c, key, "claude-haiku-4-5"))).toEqual({ status: 200 });
});

test("usage rows from all nodes add up to the calls answered", async () => {
  const { id, key } = await newKey("counted");
  const results = await Promise.all(Array.from({ length: 45 }, (_, i) => statusOf(ask(nodes[i % 3]!, key))));
  expect(results.every((r) => r.status === 200)).toBe(true);
  expect(await settledEventsOf(id, 45)).toBe(45);
}, 60_000);

test("Redis killed mid-traffic: capped calls get the documented 503, uncapped calls go on, no usage row is lost", async () => {
  const free = await newKey("uncapped");
  const capped = await newKey("capped-outage", { spendCapCents: 100 });
  const results: { key: string; status: number; code?: string }[] = [];
  const wave = async (n: number) => {
    const calls = Array.from({ length: n }, async (_, i) => {
      const k = i % 2 ? capped : free;
      return { key: k.id, ...(await statusOf(ask(nodes[i % 3]!, k.key))) };
    });
    results.push(...(await Promise.all(calls)));
  };
  await wave(12);
  const killed = (async () => {
    await Bun.sleep(20);
    redis.kill();
  })();
  await wave(24);
  await killed;
  await wave(24); // Redis is down for all of these
  const other5xx = results.filter((r) => r.status >= 500 && !(r.status === 503 && r.code === "service_unavailable"));
  expect(other5xx).toEqual([]);
  expect(results.filter((r) => r.status === 503).length).toBeGreaterThan(0);
  for (const r of results.filter((r) => r.status !== 200 && r.status !== 503)) expect(r.status).toBe(429);
  for (const k of [free, capped]) {
    const answered = results.filter((r) => r.key === k.id && r.status === 200).length;
    expect(await settledEventsOf(k.id, answered)).toBe(answered);
  }
  expect(results.filter((r) => r.key === free.id).every((r) => r.status === 200)).toBe(true);
  // Readiness says what is wrong, without taking every node out of the load balancer.
  const ready = await fetch(`${nodes[0]!.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({ status: "degraded", store: "ok", redis: "unavailable" });
  await redis.restart();
  for (let i = 0; i < 200; i++) {
    const r = (await (await fetch(`${nodes[0]!.url}/readyz`)).json()) as { status: string; changes: string };
    if (r.status === "ready" && r.changes === "subscribed") break;
    await Bun.sleep(50);
  }
  expect(await statusOf(ask(nodes[0]!, capped.key))).toEqual({ status: 200 });
}, 60_000);

test("a node killed with -9: the others keep serving", async () => {
  const { key } = await newKey("survivor");
  nodes[2]!.proc.kill("SIGKILL");
  await nodes[2]!.proc.exited;
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) => statusOf(ask(nodes[i % 2]!, key))));
  expect(results).toEqual(Array.from({ length: 10 }, () => ({ status: 200 })));
}, 60_000);
