/**
 * SPEC "Resources": the analytics response, as each of the five cost analytics endpoints
 * answers it over HTTP: every field of the table with its type (integers where the table
 * says integer), anomalies found in 90 days of usage with planted spikes, and
 * `timeframe` at its default (30d) and at each allowed value.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { demoUsage } from "../../src/services/demo-data/synthetic-usage.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;

beforeAll(async () => {
  gw = await startInProcessGateway();
  const orgId = gw.init.organization.id;
  for (const day of demoUsage({
    orgId,
    keyIds: [gw.init.apiKey.id],
    days: 90,
    now: gw.clock.now,
    baseCalls: 6,
    price: (_m, p, c) => p + c,
  }))
    await gw.rt.store.writeFlush({ id: crypto.randomUUID(), events: day, keyTouches: [] });
});

afterAll(() => gw.stop());

async function get(path: string): Promise<any> {
  const res = await gw.handle(new Request(`${gw.origin}${path}`, { headers: { authorization: `Bearer ${gw.init.keyValue}` } }));
  expect([path, res.status]).toEqual([path, 200]);
  return res.json();
}

const ENDPOINTS = [
  "/api/byok/analytics/forecast/30d",
  "/api/byok/analytics/anomalies",
  "/api/byok/analytics/trends/90d",
  "/api/byok/analytics/budget",
  "/api/byok/analytics/providers/90d",
];

const num = expect.any(Number);
const int = (what: string, v: unknown) => expect([what, Number.isInteger(v)]).toEqual([what, true]);

test("each analytics endpoint answers every field of the analytics response with its type", async () => {
  for (const path of ENDPOINTS) {
    const a = await get(path);
    expect([path, a]).toEqual([
      path,
      expect.objectContaining({
        totalCost: num,
        avgCostPerRequest: num,
        costByProvider: expect.any(Array),
        forecast: expect.objectContaining({ "7day": num, "30day": num, "90day": num }),
        anomalies: expect.any(Array),
        trends: expect.objectContaining({ dailyAverage: num, weeklyGrowth: num, efficiencyScore: num }),
      }),
    ]);
    int(`${path} totalRequests`, a.totalRequests);
    expect(a.totalRequests).toBeGreaterThan(0);
    expect(a.costByProvider.length).toBeGreaterThan(1);
    for (const p of a.costByProvider) {
      expect([path, p]).toEqual([
        path,
        expect.objectContaining({ provider: expect.any(String), totalCost: num, avgCost: num, avgLatency: num }),
      ]);
      int(`${path} requests`, p.requests);
    }
    for (const x of a.anomalies) {
      expect([path, x]).toEqual([
        path,
        expect.objectContaining({ date: expect.any(String), cost: num, expectedCost: num, deviation: num, severity: expect.any(String) }),
      ]);
    }
  }
});

test("90 days with planted spikes show anomalies with a date, the cost, the expected cost, the deviation and a severity", async () => {
  const a = await get("/api/byok/analytics/anomalies?timeframe=90d");
  const spikes = a.anomalies.filter((x: any) => x.deviation > 0);
  expect(spikes.length).toBeGreaterThan(0);
  for (const x of spikes) {
    expect(Number.isNaN(Date.parse(x.date))).toBe(false);
    expect(x.cost).toBeGreaterThan(x.expectedCost);
    expect(["low", "medium", "high"]).toContain(x.severity);
  }
});

test("timeframe is 30d by default, and 7d, 30d or 90d when given", async () => {
  expect((await get("/api/byok/analytics/anomalies")).window.days).toBe(30);
  expect((await get("/api/byok/analytics/budget")).window.days).toBe(30);
  for (const days of [7, 30, 90]) {
    expect((await get(`/api/byok/analytics/anomalies?timeframe=${days}d`)).window.days).toBe(days);
    expect((await get(`/api/byok/analytics/forecast/7d?timeframe=${days}d`)).window.days).toBe(days);
  }
  // The provider filter narrows every figure to that provider.
  const all = await get("/api/byok/analytics/providers/90d");
  const one = all.costByProvider[0].provider as string;
  const filtered = await get(`/api/byok/analytics/providers/90d?provider=${one}`);
  expect(filtered.costByProvider.map((p: any) => p.provider)).toEqual([one]);
  expect(filtered.totalRequests).toBe(all.costByProvider[0].requests);
});
