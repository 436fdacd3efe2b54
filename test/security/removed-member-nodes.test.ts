/**
 * A removed member's providers stop serving on every node, not only the one that
 * removed them: two gateways on one Redis and one Postgres; node B holds the
 * organization's providers in memory (it just served a call through the member's),
 * node A removes the member, and node B's next call no longer reaches that provider
 * (the change bus tells every node to drop the organization's providers).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { addMember } from "../../src/services/organizations.ts";
import { startSession } from "../../src/services/sessions.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from "../support/servers.ts";
import { type Caller, type Harness, ORIGIN, startHarness } from "./harness.ts";

const mock = mockPerFile();
let redis: RedisServer;
let pg: PostgresServer;
let a: Harness;
let b: { rt: Runtime; app: ReturnType<typeof createApp>; dataDir: string };

beforeAll(async () => {
  [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  const env = {
    GW_REDIS_URL: redis.url,
    GW_DATABASE_URL: await pg.createDatabase(),
    // Both nodes open the same sealed provider keys and hash API keys alike.
    GW_MASTER_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"),
  };
  a = await startHarness(env);
  const dataDir = mkdtempSync(join(tmpdir(), "gw-node-b-"));
  const config = loadConfig({ data: dataDir }, { GW_PUBLIC_URL: ORIGIN, GW_LOG_LEVEL: "silent", GW_ALLOW_PRIVATE_PROVIDERS: "1", ...env });
  const rt = await createRuntime(
    config,
    createLogger("silent", () => {}),
  );
  b = { rt, app: createApp(rt), dataDir };
}, 60_000);

afterAll(async () => {
  await b?.rt.shutdown();
  if (b) rmSync(b.dataDir, { recursive: true, force: true });
  await a?.close();
  await Promise.all([redis?.stop(), pg?.stop()]);
});

const chatOnB = async (who: Caller, model: string) =>
  (
    await b.app.handle(
      new Request(`${ORIGIN}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...who.headers },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
      }),
    )
  ).status;

test("node A removes the member; node B stops serving the member's provider", async () => {
  const user = await addMember(a.rt.services, CLI_ACTOR, a.org.organization.id, { email: "m2@example.com", role: "admin" });
  const m2: Caller = {
    headers: { cookie: `gw_session=${await startSession(a.rt.store, user, Date.now())}`, origin: ORIGIN },
    label: "m2",
  };
  const created = await a.op(m2, "provider.create", {
    provider: "custom",
    name: "m2-personal",
    apiKey: "sk-m2-personal-key-0000",
    baseUrl: `${mock.url}/v1`,
    country: "US",
    models: ["gpt-4o-mini"],
    scope: "user",
  });
  expect(created.status).toBe(200);
  const bot = await a.op(m2, "org.service-account.create", { serviceAccountName: "m2-bot" });
  const botKey: Caller = { headers: { authorization: `Bearer ${bot.body.data.apiKey.key}` }, label: "m2's bot" };
  // Node B serves it, and so holds the organization's providers in memory.
  expect(await chatOnB(botKey, "m2-personal/gpt-4o-mini")).toBe(200);
  const sent = ((await mock.requests()) as unknown[]).length;
  expect((await a.op(a.admin, "org.member.remove", { userId: user.id })).body.data.providersDisabled).toHaveLength(1);
  expect(await chatOnB(botKey, "m2-personal/gpt-4o-mini")).not.toBe(200);
  expect(((await mock.requests()) as unknown[]).length).toBe(sent);
});
