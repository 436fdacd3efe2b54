import { expect, test } from "bun:test";
import { findAnomalies } from "../../../src/services/analytics/anomalies.ts";
import { demoUsage, spikeDays } from "../../../src/services/demo-data/synthetic-usage.ts";

const now = Date.UTC(2026, 10, 25, 23, 59);
const days = [...demoUsage({ orgId: "org_demo0001", keyIds: ["key_a", "key_b"], days: 90, now, price: (_m, p, c) => p + c })];

test("90 days of usage: growth, quieter weekends, planted spikes that the anomaly check finds", () => {
  expect(days).toHaveLength(90);
  const costs = days.map((d) => d.reduce((n, e) => n + e.costMicros, 0));
  const weekOf = (i: number) => costs.slice(i, i + 7).reduce((a, b) => a + b, 0);
  expect(weekOf(80)).toBeGreaterThan(weekOf(7) * 1.5);
  for (const e of days.flat()) expect(e.createdAt).toBeLessThanOrEqual(now);
  const weekend = days.filter((d) => d.length && [0, 6].includes(new Date(d[0]!.createdAt).getUTCDay())).map((d) => d.length);
  const weekday = days.filter((d) => d.length && ![0, 6].includes(new Date(d[0]!.createdAt).getUTCDay())).map((d) => d.length);
  expect(Math.max(...weekend.slice(0, 4))).toBeLessThan(Math.min(...weekday.slice(0, 8)));
  const found = new Set(
    findAnomalies(costs)
      .filter((a) => a.deviation > 0)
      .map((a) => a.index),
  );
  for (const s of spikeDays(90)) expect(found.has(s)).toBe(true);
});

test("several providers, keys and applications; deterministic for a seed", () => {
  const all = days.flat();
  expect(new Set(all.map((e) => e.provider)).size).toBeGreaterThanOrEqual(3);
  expect(new Set(all.map((e) => e.keyId))).toEqual(new Set(["key_a", "key_b"]));
  expect(new Set(all.map((e) => e.applicationId)).size).toBeGreaterThan(2);
  const again = [...demoUsage({ orgId: "org_demo0001", keyIds: ["key_a", "key_b"], days: 90, now, price: (_m, p, c) => p + c })].flat();
  expect(again.map((e) => e.costMicros)).toEqual(all.map((e) => e.costMicros));
});
