/**
 * Redis refusing a running node's credentials (a password rotated on the server, an ACL
 * user deleted) is named as that: one log line with WRONGPASS or NOAUTH (never the URL
 * or the password), /readyz not ready with the reason, capped calls refused with the
 * documented 503 and uncapped ones served, and all of it undone once Redis accepts the
 * credentials again. A real redis-server, changed with ACL SETUSER / CONFIG SET while the
 * gateway runs.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { CredentialWatch } from "../../../src/state/redis/credential-watch.ts";
import { RedisConnection } from "../../../src/state/redis/redis-connection.ts";
import { type InProcessGateway, startInProcessGateway } from "../../support/in-process-gateway.ts";
import { mockPerFile } from "../../support/mock-per-file.ts";
import { atMock, OPENAI_AT_MOCK } from "../../support/provider-configs.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { waitFor } from "../../support/spend-probes.ts";

const redis = redisPerFile();
const mock = mockPerFile();
const USER = "gateway";
const PASSWORD = "first-horse-battery";
const ROTATED = "second-staple-correct";

let gw: InProcessGateway;
let admin: RedisClient;

beforeAll(async () => {
  admin = new RedisClient(redis.url, { autoReconnect: false });
  redis.opened.push(admin);
  await admin.send("ACL", ["SETUSER", USER, "on", `>${PASSWORD}`, "~*", "&*", "+@all"]);
  gw = await startInProcessGateway({
    env: { GW_REDIS_URL: redis.url.replace("redis://", `redis://${USER}:${PASSWORD}@`), GW_REDIS_TIMEOUT_MS: "1000" },
    logLevel: "info",
  });
  const created = await gw.op({ key: gw.init.keyValue }, "provider.create", atMock(OPENAI_AT_MOCK, mock.url));
  expect(created.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
});

async function key(name: string, spendCapCents?: number): Promise<string> {
  const r = await gw.op({ key: gw.init.keyValue }, "org.service-account.create", { serviceAccountName: name, spendCapCents });
  expect(r.status).toBe(200);
  return r.body.data.apiKey.key;
}

async function chat(key: string): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const res = await gw.handle(
    new Request(`${gw.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openai/gpt-4o-mini", max_tokens: 20, messages: [{ role: "user", content: "hi" }] }),
    }),
  );
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}

async function readyz(): Promise<{ status: number; body: Record<string, string> }> {
  const res = await gw.handle(new Request(`${gw.origin}/readyz`));
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const refusalLines = () => gw.logged.filter((l) => l.includes("refuses this node's credentials"));

test("a password rotated on Redis is named when the node reconnects, and undone once Redis takes it again", async () => {
  const capped = await key("capped", 100);
  const free = await key("free");
  expect((await chat(capped)).status).toBe(200);
  // Redis keeps the connections that logged in before: the rotation shows at the next connect.
  await admin.send("ACL", ["SETUSER", USER, "resetpass", `>${ROTATED}`]);
  await admin.send("CLIENT", ["KILL", "USER", USER]);
  await waitFor(async () => (await readyz()).status === 503);
  const ready = await readyz();
  expect(ready.body).toMatchObject({ status: "redis credentials refused", store: "ok", redis: "refused" });
  expect(ready.body.reason).toContain("WRONGPASS");
  // Capped calls get the documented envelope at once, not a hang; uncapped ones go on.
  const refused = await chat(capped);
  expect(refused.status).toBe(503);
  expect(refused.body.error.code).toBe("service_unavailable");
  expect(refused.retryAfter).toBe("1");
  expect((await chat(free)).status).toBe(200);
  // Several probes have run by now (one a second): logged once, without the URL or a password.
  await waitFor(async () => gw.logged.join("").includes('"probes":1'));
  await Bun.sleep(2_100);
  gw.rt.log.flush();
  expect(refusalLines()).toHaveLength(1);
  expect(refusalLines()[0]).toContain("WRONGPASS");
  for (const secret of [PASSWORD, ROTATED, String(redis.port), "redis://"]) expect(gw.logged.join("")).not.toContain(secret);

  await admin.send("ACL", ["SETUSER", USER, "resetpass", `>${PASSWORD}`]);
  await waitFor(async () => (await readyz()).body.status === "ready");
  expect((await chat(capped)).status).toBe(200);
  // Said by the watch at its next tick (a second at most) after the reconnect /readyz already reads.
  const acceptedLines = () => {
    gw.rt.log.flush();
    return gw.logged.filter((l) => l.includes("accepts this node's credentials again"));
  };
  await waitFor(async () => acceptedLines().length > 0);
  await Bun.sleep(1_100);
  expect(acceptedLines()).toHaveLength(1);
}, 60_000);

test("an ACL user deleted on Redis drops the node's connections, and the refusal is named", async () => {
  const before = refusalLines().length;
  await admin.send("ACL", ["DELUSER", USER]);
  await waitFor(async () => (await readyz()).body.redis === "refused");
  expect((await readyz()).body.reason).toContain("WRONGPASS");
  await waitFor(async () => {
    gw.rt.log.flush();
    return refusalLines().length === before + 1;
  });
  await admin.send("ACL", ["SETUSER", USER, "on", `>${PASSWORD}`, "~*", "&*", "+@all"]);
  await waitFor(async () => (await readyz()).body.status === "ready");
}, 60_000);

test("a password required after the node connected without one is named NOAUTH; a Redis that is down is not a refusal", async () => {
  const conn = new RedisConnection(redis.url, { timeoutMs: 500, reconnectEveryMs: 50 });
  const warned: string[] = [];
  const watch = new CredentialWatch(
    conn,
    redis.url,
    { warn: (_m, f) => warned.push(String(f?.reason)), info: () => {} },
    {
      everyMs: 50,
      timeoutMs: 1000,
    },
  );
  redis.opened.push(watch, conn);
  await waitFor(async () => conn.connected);
  await admin.send("CONFIG", ["SET", "requirepass", ROTATED]);
  await admin.send("AUTH", [ROTATED]);
  await admin.send("CLIENT", ["KILL", "USER", "default", "SKIPME", "yes"]);
  await waitFor(async () => watch.refusal !== null);
  expect(watch.refusal).toContain("NOAUTH");
  expect(warned).toHaveLength(1);
  expect(warned[0]).toContain("NOAUTH");
  await admin.send("CONFIG", ["SET", "requirepass", ""]);
  await waitFor(async () => conn.connected && watch.refusal === null);
  // Nothing listening says nothing of credentials: Redis away stays "unavailable".
  const away = new CredentialWatch(
    { connected: false },
    "redis://:pw@127.0.0.1:1",
    { warn: () => warned.push("away"), info: () => {} },
    {
      everyMs: 20,
      timeoutMs: 200,
    },
  );
  redis.opened.push(away);
  await Bun.sleep(200);
  expect(away.refusal).toBeNull();
  expect(warned).toHaveLength(1);
}, 60_000);

test("a probe Redis does not answer in time keeps a known refusal; three in a row take Redis for away", async () => {
  const verdicts: ({ refused: string | null } | null)[] = [{ refused: "WRONGPASS" }, null, null];
  let asked = 0;
  const seen: (string | null)[] = [];
  const watch = new CredentialWatch(
    { connected: false },
    "redis://:pw@127.0.0.1:1",
    { warn: () => {}, info: () => {} },
    {
      everyMs: 10,
      timeoutMs: 100,
      probe: async () => {
        // What the watch concluded from the answer before this one.
        if (asked > 0) seen.push(watch.refusal);
        return asked < verdicts.length ? verdicts[asked++]! : (asked++, null);
      },
    },
  );
  redis.opened.push(watch);
  await waitFor(async () => seen.length >= 4);
  watch.close();
  expect(seen.slice(0, 4)).toEqual(["WRONGPASS", "WRONGPASS", "WRONGPASS", null]);
});

test("a probe that finds the credentials taken again says so once, though the client has not reconnected yet", async () => {
  const verdicts = [{ refused: "WRONGPASS" }, { refused: null }];
  let asked = 0;
  const said: string[] = [];
  const watch = new CredentialWatch(
    { connected: false },
    "redis://:pw@127.0.0.1:1",
    { warn: (m: string) => said.push(m), info: (m: string) => said.push(m) },
    { everyMs: 10, timeoutMs: 100, probe: async () => verdicts[Math.min(asked++, verdicts.length - 1)]! },
  );
  redis.opened.push(watch);
  await waitFor(async () => asked >= 4);
  watch.close();
  expect(watch.refusal).toBeNull();
  expect(said.filter((m) => m.includes("accepts this node's credentials again"))).toHaveLength(1);
});

test("a connection made and lost between two ticks ends the refusal before it: the next refusal is logged as new", async () => {
  const conn = { connected: false, connects: 0 };
  let verdict: { refused: string | null } = { refused: "WRONGPASS" };
  const warned: string[] = [];
  const watch = new CredentialWatch(
    conn,
    "redis://:pw@127.0.0.1:1",
    { warn: (m: string) => warned.push(m), info: () => {} },
    { everyMs: 10, timeoutMs: 100, logEveryMs: 60_000, probe: async () => verdict },
  );
  redis.opened.push(watch);
  await waitFor(async () => warned.length === 1);
  // The password is put back and the user deleted again before any tick sees the connection up.
  verdict = { refused: "WRONGPASS" };
  conn.connects++;
  await waitFor(async () => warned.length === 2);
  watch.close();
  expect(warned).toHaveLength(2);
});
