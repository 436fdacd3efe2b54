/** Cost analytics end to end: calls through the mock, then the operations and the five endpoints agree. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { GatewayUnderTest } from "../support/in-process.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { startStack, stopStack } from "../support/stack.ts";

let gw: GatewayUnderTest;
let mock: RunningMock;
let org: InitResult;

const OPENAI_CALLS = 4;
const ANTHROPIC_CALLS = 3;

beforeAll(async () => {
  ({ mock, org, gw } = await startStack({ env: { GW_FLUSH_INTERVAL_MS: "50" }, providers: [OPENAI_AT_MOCK, ANTHROPIC_AT_MOCK] }));
  const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
  const anthropic = new Anthropic({ baseURL: gw.url, apiKey: org.apiKey, maxRetries: 0 });
  // Two calls for the application "billing" (header), one for none, one for "etl-job" (the gateway envelope's context).
  for (let i = 0; i < 2; i++)
    await openai.chat.completions.create(
      { model: "gpt-4o", max_tokens: 50, messages: [{ role: "user", content: `Question ${i}` }] },
      { headers: { "x-gw-application": "billing" } },
    );
  await openai.chat.completions.create({ model: "gpt-4o", max_tokens: 50, messages: [{ role: "user", content: "Question 2" }] });
  const proxied = await fetch(`${gw.url}/api/v1/gateway`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${org.apiKey}`,
      "content-type": "application/json",
      "x-gw-application": "ignored-when-context-names-one",
    },
    body: JSON.stringify({
      operation: "ai.proxy",
      params: { provider: "openai", model: "gpt-4o", messages: [{ role: "user", content: "Question 3" }] },
      context: { applicationId: "etl-job" },
    }),
  });
  expect(proxied.status).toBe(200);
  for (let i = 0; i < ANTHROPIC_CALLS; i++)
    await anthropic.messages.create({ model: "claude-sonnet-4-0", max_tokens: 50, messages: [{ role: "user", content: `Question ${i}` }] });
  // The usage buffer flushes every 50 ms: wait until the roll-ups hold every call.
  for (;;) {
    const r = await gw.op(org.apiKey, "metrics.cost", { windowDays: 7 });
    if (r.body.data.totalCalls >= OPENAI_CALLS + ANTHROPIC_CALLS) break;
    await Bun.sleep(50);
  }
}, 30_000);

afterAll(async () => {
  await stopStack({ gw, mock });
});

const get = async (path: string, key = org.apiKey) => {
  const res = await fetch(`${gw.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
};

test("metrics.cost: byProvider sums to the total, and groupings agree", async () => {
  const r = await gw.op(org.apiKey, "metrics.cost", { period: "30d", groupBy: "model" });
  expect(r.status).toBe(200);
  const d = r.body.data;
  expect(d.totalCalls).toBe(OPENAI_CALLS + ANTHROPIC_CALLS);
  expect(Object.keys(d.byProvider).sort()).toEqual(["anthropic", "openai"]);
  expect(d.byProvider.openai.calls).toBe(OPENAI_CALLS);
  expect(d.byProvider.anthropic.calls).toBe(ANTHROPIC_CALLS);
  expect(Number.isInteger(d.totalCostCents)).toBe(true);
  const providerCents = Object.values(d.byProvider as Record<string, { costCents: number }>).reduce((n, p) => n + p.costCents, 0);
  expect(providerCents).toBe(d.totalCostCents);
  expect(d.groups.reduce((n: number, g: { costCents: number }) => n + g.costCents, 0)).toBe(d.totalCostCents);
  expect(d.totalCostUsd).toBeGreaterThan(0);
  const byDay = await gw.op(org.apiKey, "metrics.cost", { windowDays: 30, groupBy: "day" });
  expect(byDay.body.data.groups).toHaveLength(1);
  expect(byDay.body.data.groups[0].calls).toBe(OPENAI_CALLS + ANTHROPIC_CALLS);
});

test("applications: recorded from the header and the envelope's context, grouped and filtered", async () => {
  const r = (await gw.op(org.apiKey, "metrics.cost", { windowDays: 7, groupBy: "application" })).body.data;
  const calls = Object.fromEntries(r.groups.map((g: { application: string; calls: number }) => [g.application, g.calls]));
  expect(calls).toEqual({ billing: 2, "etl-job": 1, "": 1 + ANTHROPIC_CALLS });
  expect(r.groups.reduce((n: number, g: { costCents: number }) => n + g.costCents, 0)).toBe(r.totalCostCents);
  const billing = (await gw.op(org.apiKey, "metrics.cost", { windowDays: 7, application: "billing" })).body.data;
  expect(billing.totalCalls).toBe(2);
  expect(billing.byProvider).toEqual({ openai: { costCents: expect.any(Number), calls: 2 } });
  const a = await get("/api/byok/analytics/providers/7d?application=etl-job");
  expect(a.body).toMatchObject({ application: "etl-job", totalRequests: 1 });
  expect((await gw.op(org.apiKey, "metrics.cost", { application: "billing", groupBy: "key" })).status).toBe(400);
  const long = await fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json", "x-gw-application": "x".repeat(201) },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(long.status).toBe(400);
});

test("metrics.cost refuses bad windows in the gateway envelope", async () => {
  for (const params of [{ period: "30x" }, { windowDays: 0 }, { windowDays: 7, period: "7d" }, { groupBy: "colour" }, { period: "999d" }]) {
    const r = await gw.op(org.apiKey, "metrics.cost", params);
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
  }
});

test("the five analytics endpoints agree with metrics.cost", async () => {
  const cost = (await gw.op(org.apiKey, "metrics.cost", { windowDays: 30 })).body.data;
  for (const path of [
    "/api/byok/analytics/forecast/7d",
    "/api/byok/analytics/anomalies",
    "/api/byok/analytics/trends/30d",
    "/api/byok/analytics/budget",
    "/api/byok/analytics/providers/30d",
  ]) {
    const r = await get(path);
    expect(r.status).toBe(200);
    expect(r.body.totalRequests).toBe(OPENAI_CALLS + ANTHROPIC_CALLS);
    expect(r.body.totalCost).toBeCloseTo(cost.totalCostUsd, 9);
    const sum = r.body.costByProvider.reduce((n: number, p: { totalCost: number }) => n + p.totalCost, 0);
    expect(sum).toBeCloseTo(r.body.totalCost, 9);
    expect(r.body.costByProvider.map((p: { provider: string }) => p.provider).sort()).toEqual(["anthropic", "openai"]);
    for (const p of r.body.costByProvider) expect(p.avgLatency).toBeGreaterThanOrEqual(0);
    expect(Object.keys(r.body.forecast).sort()).toEqual(["30day", "7day", "90day", "model"]);
    expect(Array.isArray(r.body.anomalies)).toBe(true);
    expect(r.body.trends).toMatchObject({ efficiencyScore: 100 });
  }
  const forecast = await get("/api/byok/analytics/forecast/90d");
  expect(forecast.body.focus.horizonDays).toBe(90);
});

test("provider filter and budget focus", async () => {
  const openai = await get("/api/byok/analytics/providers/7d?provider=openai");
  expect(openai.body.totalRequests).toBe(OPENAI_CALLS);
  expect(openai.body.costByProvider.map((p: { provider: string }) => p.provider)).toEqual(["openai"]);
  await gw.op(org.apiKey, "user.preferences", { set: { monthlyBudgetCents: 100_000 } });
  const budget = await get("/api/byok/analytics/budget");
  expect(budget.body.focus.budget).toMatchObject({ monthlyBudgetCents: 100_000, thresholdsReached: [] });
  expect(budget.body.focus.budget.spentCents).toBe((await gw.op(org.apiKey, "metrics.cost", { windowDays: 1 })).body.data.totalCostCents);
});

test("metrics.comprehensive carries the same totals", async () => {
  const c = (await gw.op(org.apiKey, "metrics.comprehensive", { windowDays: 30 })).body.data;
  const cost = (await gw.op(org.apiKey, "metrics.cost", { windowDays: 30 })).body.data;
  expect(c.cost.totalCostCents).toBe(cost.totalCostCents);
  expect(c.calls).toBe(OPENAI_CALLS + ANTHROPIC_CALLS);
  expect(c.errors).toBe(0);
  expect(c.topModels.length).toBe(2);
  expect(c.topKeys[0].calls).toBe(OPENAI_CALLS + ANTHROPIC_CALLS);
});

test("bad period or timeframe is a 400 in the general envelope; no credential is a 401", async () => {
  for (const path of [
    "/api/byok/analytics/forecast/31d",
    "/api/byok/analytics/anomalies?timeframe=1y",
    "/api/byok/analytics/trends/7d?timeframe=x",
  ]) {
    const r = await get(path);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: "invalid_request" } });
  }
  const anon = await fetch(`${gw.url}/api/byok/analytics/anomalies`);
  expect(anon.status).toBe(401);
});

test("the analytics, the daily usage, the key's counter and metrics.cost agree to the micro-dollar for the same calls", async () => {
  const cost = (await gw.op(org.apiKey, "metrics.cost", { windowDays: 30 })).body.data;
  const micros = Math.round(cost.totalCostUsd * 1_000_000);
  expect(micros).toBeGreaterThan(0);
  const daily = (await gw.op(org.apiKey, "usage.daily", { days: 30 })).body.data.days;
  expect(daily.reduce((n: number, d: { costMicros: number }) => n + d.costMicros, 0)).toBe(micros);
  expect(daily.reduce((n: number, d: { requests: number }) => n + d.requests, 0)).toBe(OPENAI_CALLS + ANTHROPIC_CALLS);
  // Every call was made with this one key: its own counter (written by the same flush) holds the same spend.
  const keys = (await gw.op(org.apiKey, "org.api-keys.list")).body.data.apiKeys as { spentCents: number; requestCount: number }[];
  expect(Math.round(keys.reduce((n, k) => n + k.spentCents, 0) * 10_000)).toBe(micros);
  const trends = await get("/api/byok/analytics/trends/7d");
  expect(Math.round(trends.body.totalCost * 1_000_000)).toBe(micros);
  expect(Math.round(trends.body.daily.reduce((n: number, d: { cost: number }) => n + d.cost, 0) * 1_000_000)).toBe(micros);
});
