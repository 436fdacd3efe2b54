/** Graceful shutdown: SIGTERM under load flushes every completed request's accounting; buckets survive a restart. */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { initOrg, removeDir, startGateway, startMockProvider, tempDataDir } from "../support/gateway-process.ts";
import { withStore } from "../support/store-access.ts";

test("after SIGTERM under load, every completed request is accounted in the store", async () => {
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir);
  // A long flush interval: only the shutdown flush can have written the counts.
  const gw = await startGateway({ dataDir, env: { GW_FLUSH_INTERVAL_MS: "60000" } });
  const body = JSON.stringify({ operation: "user.me", params: {} });
  let completed = 0;
  let stopping = false;
  // SIGTERM once the load is real (more than 20 answered), however slow a loaded machine is to get there.
  const underLoad = Promise.withResolvers<void>();
  const worker = async () => {
    while (!stopping) {
      try {
        const res = await fetch(`${gw.url}/api/v1/gateway`, { method: "POST", body, headers: { authorization: `Bearer ${org.apiKey}` } });
        await res.arrayBuffer();
        if (res.status === 200 && ++completed > 20) underLoad.resolve();
      } catch {
        return; // the server has closed its socket
      }
    }
  };
  const workers = Array.from({ length: 20 }, worker);
  await underLoad.promise;
  const exit = gw.stop("SIGTERM");
  stopping = true;
  await Promise.all(workers);
  expect(await exit).toBe(0);
  expect(completed).toBeGreaterThan(20);

  const key = await withStore(dataDir, (store) => store.getApiKey(org.keyId));
  expect(key?.requestCount).toBeGreaterThanOrEqual(completed);
  expect(key?.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
  expect(gw.lines.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  removeDir(dataDir);
});

test("after SIGTERM under chat-completion load, every 200 the client received has its usage event in the store", async () => {
  const mock = await startMockProvider(["--latency-ms", "30"]);
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir);
  // A long flush interval: only the shutdown flush can have written the usage events.
  const gw = await startGateway({ dataDir, env: { GW_FLUSH_INTERVAL_MS: "60000" } });
  expect(
    (
      await gw.op(org.apiKey, "provider.create", {
        provider: "openai",
        apiKey: "sk-shutdown-test-123456",
        baseUrl: `${mock.url}/v1`,
        scope: "organization",
      })
    ).status,
  ).toBe(200);
  /** Request ids of the calls the client saw complete: a 200, and for a stream its last event too. */
  const completed: { id: string; stream: boolean }[] = [];
  let stopping = false;
  // SIGTERM once both kinds of call are under way in numbers (more than 20 of each answered), however slow a loaded machine is.
  const underLoad = Promise.withResolvers<void>();
  const count = (stream: boolean) => completed.filter((c) => c.stream === stream).length;
  const worker = async (n: number) => {
    const stream = n % 2 === 1; // half the workers stream, so calls accounted when their stream ends are covered too
    while (!stopping) {
      try {
        const res = await fetch(`${gw.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-4o", stream, max_tokens: 30, messages: [{ role: "user", content: `load ${n}` }] }),
        });
        const text = await res.text();
        if (res.status === 200 && (!stream || text.trimEnd().endsWith("data: [DONE]"))) {
          completed.push({ id: res.headers.get("x-request-id") as string, stream });
          if (count(false) > 20 && count(true) > 20) underLoad.resolve();
        }
      } catch {
        return; // the server has closed its socket
      }
    }
  };
  const workers = Array.from({ length: 20 }, (_, n) => worker(n));
  await underLoad.promise;
  const exit = gw.stop("SIGTERM");
  stopping = true;
  await Promise.all(workers);
  expect(await exit).toBe(0);
  await mock.stop();
  expect(completed.filter((c) => !c.stream).length).toBeGreaterThan(20);
  expect(completed.filter((c) => c.stream).length).toBeGreaterThan(20);

  const rows = await withStore(dataDir, (store) => store.listUsageEvents(org.orgId));
  const byRequest = new Map(rows.map((r) => [r.requestId, r]));
  const missing = completed.filter((c) => byRequest.get(c.id)?.status !== 200);
  expect(missing).toEqual([]);
  for (const c of completed)
    expect(byRequest.get(c.id)).toMatchObject({ provider: "openai", model: "gpt-4o", costMicros: expect.any(Number) });
  expect(rows.length).toBe(byRequest.size); // one event per call, never two
  removeDir(dataDir);
}, 30_000);

test("token buckets survive a restart through the msgpack snapshot", async () => {
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir);
  const env = { GW_RATE_LIMIT_REQUESTS: "50", GW_RATE_LIMIT_WINDOW_S: "3600" };
  let gw = await startGateway({ dataDir, env });
  for (let i = 0; i < 30; i++) await gw.op(org.apiKey, "user.me");
  const before = Number((await gw.op(org.apiKey, "user.me")).headers.get("x-ratelimit-remaining"));
  expect(before).toBeLessThanOrEqual(19);
  expect(await gw.stop("SIGINT")).toBe(0);
  expect(existsSync(join(dataDir, "hot-state.msgpack"))).toBe(true);

  gw = await startGateway({ dataDir, env });
  const after = Number((await gw.op(org.apiKey, "user.me")).headers.get("x-ratelimit-remaining"));
  expect(after).toBeLessThanOrEqual(before);
  await gw.stop();
  removeDir(dataDir);
});

test("the data folder never contains an API key value", async () => {
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir);
  const gw = await startGateway({ dataDir });
  const values = [org.apiKey];
  for (const keyType of ["live", "test"]) {
    const r = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: `sa-${keyType}`, keyType });
    values.push(r.body.data.apiKey.key);
    await gw.op(r.body.data.apiKey.key, "user.me");
  }
  await gw.stop();
  const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) {
    const bytes = readFileSync(join(f.parentPath, f.name)).toString("latin1");
    for (const v of values) {
      expect(bytes.includes(v)).toBe(false);
      expect(bytes.includes(v.slice(8))).toBe(false); // not even the secret part alone
    }
  }
  removeDir(dataDir);
});
