/**
 * `org.api-key.rotate` is not a way to reset a cap. The probe that found the hole: a key
 * with a 20,000 µ$ lifetime cap spent up to it, was rotated, and its successor spent
 * 31,230 µ$ more, because the new key started at 0. The successor now counts against
 * the same totals, in the embedded store and with Redis and Postgres.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mockPerFile } from "../support/mock-per-file.ts";
import { atMock, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from "../support/servers.ts";
import { type Harness, startHarness } from "./harness.ts";

const mock = mockPerFile();

const ask = { provider: "openai", model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: "How much is this?" }] };

/** Calls with `key` until a cap refuses one; the refusal's code. */
async function spendUntilRefused(h: Harness, key: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const r = await h.op({ headers: { authorization: `Bearer ${key}` }, label: "capped" }, "ai.proxy", ask);
    if (r.status === 429) return r.body.code;
    expect(r.status).toBe(200);
  }
  throw new Error("the cap never refused a call");
}

function rotationSuite(name: string, env: () => Promise<Record<string, string>>) {
  describe(name, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(await env());
      const created = await h.op(h.admin, "provider.create", atMock(OPENAI_AT_MOCK, mock.url));
      expect(created.status).toBe(200);
    }, 60_000);
    afterAll(async () => {
      await h?.close();
    });

    for (const [cap, code] of [
      ["spendCapCents", "spend_cap_exceeded"],
      ["monthlyCapCents", "monthly_cap_exceeded"],
    ] as const) {
      test(`the new key inherits the spend so far against ${cap}`, async () => {
        const created = await h.op(h.admin, "org.service-account.create", { serviceAccountName: `capped-${cap}`, [cap]: 1 });
        const old = created.body.data.apiKey;
        expect(await spendUntilRefused(h, old.key)).toBe(code);
        const rotated = await h.op(h.admin, "org.api-key.rotate", { keyId: old.id });
        expect(rotated.status).toBe(200);
        expect(rotated.body.data.apiKey[cap]).toBe(1);
        const next = rotated.body.data.apiKey.key as string;
        const r = await h.op({ headers: { authorization: `Bearer ${next}` }, label: "rotated" }, "ai.proxy", ask);
        expect(r.status).toBe(429);
        expect(r.body.code).toBe(code);
      });
    }
  });
}

rotationSuite("embedded store", async () => ({}));

let redis: RedisServer | null = null;
let pg: PostgresServer | null = null;
rotationSuite("Redis and Postgres", async () => {
  [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  return { GW_REDIS_URL: redis.url, GW_DATABASE_URL: await pg.createDatabase() };
});
afterAll(async () => {
  await Promise.all([redis?.stop(), pg?.stop()]);
});
