/** Spend caps over HTTP: reservations against key and organization caps, settled with the real cost. */
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { withStore } from "../support/store-access.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

const spentMicros = async (keyId: string) => {
  const rows = (await withStore(stack.gw.dataDir, (store) => store.listUsageEvents(stack.org.orgId))).filter(
    (e) => e.keyId === keyId && e.status === 200,
  );
  return rows.reduce((n, r) => n + r.costMicros, 0);
};

const stack = stackPerFile({ env: { GW_FLUSH_INTERVAL_MS: "50" }, providers: [OPENAI_AT_MOCK, ANTHROPIC_AT_MOCK] });

test("50 concurrent calls never take a key past its cap", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "capped", spendCapCents: 1 });
  const { id, key } = created.body.data.apiKey;
  const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
  // gpt-4o: 2.5 micro-dollars per prompt token, 10 per completion token. Each call reserves
  // its prompt plus max_tokens (about 1,030 micros) and costs about 240: a 1-cent cap fits many, not 50.
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, () =>
      client.chat.completions.create({ model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: "How much is this?" }] }),
    ),
  );
  const ok = results.filter((r) => r.status === "fulfilled").length;
  const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
  expect(ok).toBeGreaterThan(5);
  expect(refused.length).toBeGreaterThan(0);
  for (const e of refused) {
    expect(e.status).toBe(429);
    expect(e.error).toMatchObject({ code: "spend_cap_exceeded", type: "rate_limit_error", details: { limit: 1 } });
  }
  await Bun.sleep(200);
  // Reservations cover each call's maximum, so the real total never passes the cap.
  expect(await spentMicros(id)).toBeLessThanOrEqual(10_000);
  expect(await spentMicros(id)).toBeGreaterThan(0);
});

test("a monthly cap and the organization budget, in the gateway and messages envelopes too", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "monthly", monthlyCapCents: 0 });
  const key = created.body.data.apiKey.key;
  const res = await fetch(`${stack.gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }),
  });
  expect(res.status).toBe(429);
  const body = (await res.json()) as any;
  expect(body.error.code).toBe("monthly_cap_exceeded");
  expect(Date.parse(body.error.details.resetAt)).toBe(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1));
  const viaOp = await stack.gw.op(key, "ai.proxy", { provider: "openai", model: "gpt-4o", messages: [{ role: "user", content: "x" }] });
  expect(viaOp.status).toBe(429);
  expect(viaOp.body).toMatchObject({ success: false, code: "monthly_cap_exceeded", details: { limit: 0, remaining: 0 } });
  const viaMessages = await fetch(`${stack.gw.url}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
    body: JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 20, messages: [{ role: "user", content: "x" }] }),
  });
  expect(viaMessages.status).toBe(429);
  expect(await viaMessages.json()).toEqual({
    type: "error",
    error: {
      type: "rate_limit_error",
      code: "monthly_cap_exceeded",
      message: expect.stringContaining("monthly cap"),
      details: { limit: 0, remaining: 0, resetAt: body.error.details.resetAt },
    },
  });

  // The organization budget binds keys without caps of their own, and lifting it takes effect at once.
  expect((await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { monthlyBudgetCents: 0 } })).status).toBe(200);
  const free = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
  const err = await free.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
  expect(err.error.code).toBe("monthly_cap_exceeded");
  expect(err.error.message).toContain("organization");
  await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { monthlyBudgetCents: null } });
  expect((await free.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] })).object).toBe(
    "chat.completion",
  );
});

test("raising a key's cap applies to its next call", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "raised", spendCapCents: 0 });
  const { id, key } = created.body.data.apiKey;
  const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
  expect(
    (await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((e) => e)).status,
  ).toBe(429);
  await stack.gw.op(stack.org.apiKey, "org.api-key.update", { keyId: id, spendCapCents: 100 });
  expect((await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] })).object).toBe(
    "chat.completion",
  );
});

test("a lifetime cap in the messages envelope: limit, remaining, and no reset", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", {
    serviceAccountName: "messages-capped",
    spendCapCents: 0,
  });
  const res = await fetch(`${stack.gw.url}/v1/messages`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${created.body.data.apiKey.key}`,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    },
    body: JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 20, messages: [{ role: "user", content: "x" }] }),
  });
  expect(res.status).toBe(429);
  const body = (await res.json()) as any;
  expect(body).toMatchObject({
    type: "error",
    error: { type: "rate_limit_error", code: "spend_cap_exceeded", details: { limit: 0, remaining: 0, resetAt: null } },
  });
  expect(Object.keys(body.error.details).sort()).toEqual(["limit", "remaining", "resetAt"]);
});

describe("caps removed and set again see the spend made in between", () => {
  // About 8,000 prompt tokens: 2 cents of gpt-4o input per call.
  const LONG = "The quick brown fox jumps over the lazy dog. ".repeat(800);
  const orgSpent = async () =>
    (await withStore(stack.gw.dataDir, (store) => store.listUsageEvents(stack.org.orgId))).reduce((n, r) => n + r.costMicros, 0);

  test("a key's spend cap", async () => {
    const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", {
      serviceAccountName: "cap-toggled",
      spendCapCents: 5,
    });
    const { id, key } = created.body.data.apiKey;
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
    const small = () => client.chat.completions.create({ model: "gpt-4o", max_tokens: 20, messages: [{ role: "user", content: "x" }] });
    await small(); // capped: the gateway now holds this key's totals
    expect((await stack.gw.op(stack.org.apiKey, "org.api-key.update", { keyId: id, spendCapCents: null })).status).toBe(200);
    for (let i = 0; i < 3; i++)
      await client.chat.completions.create({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: LONG }] });
    await Bun.sleep(300);
    expect(await spentMicros(id)).toBeGreaterThan(50_000); // past the 5-cent cap that comes back
    expect((await stack.gw.op(stack.org.apiKey, "org.api-key.update", { keyId: id, spendCapCents: 5 })).status).toBe(200);
    const err = await small().catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.error).toMatchObject({ code: "spend_cap_exceeded", details: { limit: 5, remaining: 0 } });
  });

  test("the organization's monthly budget", async () => {
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
    await Bun.sleep(300);
    const before = await orgSpent();
    // A budget with room for small calls: the gateway now holds the organization's totals.
    const budget = Math.ceil((before + 30_000) / 10_000);
    expect((await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { monthlyBudgetCents: budget } })).status).toBe(200);
    await client.chat.completions.create({ model: "gpt-4o", max_tokens: 20, messages: [{ role: "user", content: "x" }] });
    expect((await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { monthlyBudgetCents: null } })).status).toBe(200);
    for (let i = 0; i < 3; i++)
      await client.chat.completions.create({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: LONG }] });
    await Bun.sleep(300);
    expect(await orgSpent()).toBeGreaterThan(budget * 10_000);
    expect((await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { monthlyBudgetCents: budget } })).status).toBe(200);
    try {
      const err = await client.chat.completions
        .create({ model: "gpt-4o", max_tokens: 20, messages: [{ role: "user", content: "x" }] })
        .catch((e) => e);
      expect(err.status).toBe(429);
      expect(err.error).toMatchObject({ code: "monthly_cap_exceeded", details: { limit: budget, remaining: 0 } });
    } finally {
      await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { monthlyBudgetCents: null } });
    }
  });
});
