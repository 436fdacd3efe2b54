/**
 * The request runner on Redis: a model call's rate-limit charge travels in its spend
 * reservation's command (one EVALSHA for both, counted at the redis-server), is reported
 * in the headers, and still refuses first: a caller over its limit hears 429 before its
 * body is judged and before anything is reserved or sent to the provider.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { RedisConnection } from "../../src/state/redis/redis-connection.ts";
import { RedisRateLimiter } from "../../src/state/redis/redis-rate-limiter.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { atMock, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { redisPerFile } from "../support/redis-per-file.ts";

const redis = redisPerFile();
const mock = mockPerFile();
/** Low enough for another node to empty a bucket quickly; the admin key's own operations share it too. */
const LIMIT = 50;

let gw: InProcessGateway;
let probe: RedisClient;

beforeAll(async () => {
  gw = await startInProcessGateway({
    env: { GW_REDIS_URL: redis.url, GW_RATE_LIMIT_REQUESTS: String(LIMIT), GW_RATE_LIMIT_WINDOW_S: "3600" },
  });
  const created = await gw.op({ key: gw.init.keyValue }, "provider.create", atMock(OPENAI_AT_MOCK, mock.url));
  expect(created.status).toBe(200);
  probe = new RedisClient(redis.url);
  await probe.connect();
  redis.opened.push(probe);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
});

/** A service account whose key has a lifetime spend cap: its calls reserve in Redis. */
async function cappedKey(name: string): Promise<{ id: string; key: string }> {
  const r = await gw.op({ key: gw.init.keyValue }, "org.service-account.create", { serviceAccountName: name, spendCapCents: 100 });
  expect(r.status).toBe(200);
  return { id: r.body.data.apiKey.id, key: r.body.data.apiKey.key };
}

const chat = (key: string, body: unknown = { model: "openai/gpt-4o-mini", max_tokens: 20, messages: [{ role: "user", content: "hi" }] }) =>
  gw.handle(
    new Request(`${gw.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

/** Scripts run by the redis-server so far (every shared rate-limit take, reservation and settlement is one). */
async function scriptsRun(): Promise<number> {
  const info = String(await probe.send("INFO", ["commandstats"]));
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(info)?.[1] ?? 0) + Number(/cmdstat_eval:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

/** Waits until the key's reservations are settled in Redis (the settlement is sent after the response). */
async function settled(keyId: string): Promise<void> {
  for (;;) {
    const [res, life] = (await probe.send("HMGET", [`gw:spend:key:${keyId}`, "res", "life"])) as [string | null, string | null];
    if (res === "0" && Number(life) > 0) return;
    await Bun.sleep(5);
  }
}

test("a capped call's rate-limit take and spend reservation are one script: two a call with its settlement, not three", async () => {
  const { id, key } = await cappedKey("one-trip");
  // The first call loads the key's totals into Redis; the second is the steady state.
  expect((await chat(key)).status).toBe(200);
  await settled(id);
  const before = await scriptsRun();
  const res = await chat(key);
  expect(res.status).toBe(200);
  expect(res.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
  expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 2));
  await res.text();
  await settled(id);
  expect((await scriptsRun()) - before).toBe(2);
});

/** A capped key that has called once, whose bucket another node then empties: this gateway last saw tokens left, so it holds the charge back. */
async function overLimitElsewhere(name: string): Promise<{ id: string; key: string }> {
  const capped = await cappedKey(name);
  expect((await chat(capped.key)).status).toBe(200);
  await settled(capped.id);
  const other = new RedisConnection(redis.url, { timeoutMs: 2000 });
  redis.opened.push(other);
  while (!other.connected) await Bun.sleep(10);
  const elsewhere = new RedisRateLimiter(other, { limit: LIMIT, windowS: 3600, nodes: () => 2 });
  for (let i = 1; i < LIMIT; i++) expect((await elsewhere.take(`key:${capped.id}`)).allowed).toBe(true);
  return capped;
}

test("a take refused inside the reservation's script: 429, nothing reserved, nothing sent to the provider", async () => {
  const { id, key } = await overLimitElsewhere("over-limit");
  const sent = (await mock.requests()).length;
  const res = await chat(key);
  expect(res.status).toBe(429);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect((await mock.requests()).length).toBe(sent);
  const [reserved] = (await probe.send("HMGET", [`gw:spend:key:${id}`, "res"])) as [string | null];
  expect(reserved).toBe("0");
});

test("a held-back charge still refuses first: a caller over its limit hears 429, not its body's 400", async () => {
  const { key } = await overLimitElsewhere("over-limit-bad-body");
  const res = await chat(key, { model: "openai/gpt-4o-mini", messages: "not a list" });
  expect(res.status).toBe(429);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
  // Within its limit, the same body is the caller's own error.
  const { key: fresh } = await cappedKey("within-limit");
  expect((await chat(fresh, { model: "openai/gpt-4o-mini", messages: "not a list" })).status).toBe(400);
});

test("an uncapped call is charged at admission, before its body is read: nothing to carry it", async () => {
  const r = await gw.op({ key: gw.init.keyValue }, "org.service-account.create", { serviceAccountName: "uncapped" });
  expect(r.status).toBe(200);
  const { id, key } = r.body.data.apiKey as { id: string; key: string };
  const bytes = new TextEncoder();
  let send!: (text: string) => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      send = (text) => {
        controller.enqueue(bytes.encode(text));
        controller.close();
      };
    },
  });
  const answer = gw.handle(
    new Request(`${gw.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit),
  );
  // The body has not been sent: the token is taken all the same.
  while ((await probe.send("HGET", [`gw:rl:key:${id}`, "t"])) === null) await Bun.sleep(5);
  send(JSON.stringify({ model: "openai/gpt-4o-mini", max_tokens: 20, messages: [{ role: "user", content: "hi" }] }));
  const res = await answer;
  expect(res.status).toBe(200);
  expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1));
});
