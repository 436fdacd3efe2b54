/** Provider health in /metrics: caller-chosen model names fold into one `other` label per configuration. */
import { expect, test } from "bun:test";
import { foldUnknownModels, ProviderHealthMetrics } from "../../src/state/provider-health-metrics.ts";
import { ProviderHealth } from "../../src/state/provider-health.ts";

const known = new Set(["gpt-4o", "gpt-4o-mini"]);
const isKnown = (m: string) => known.has(m);

test("1,000 unknown model names add one series per metric, not 3,000", () => {
  const h = new ProviderHealth({ maxModels: 5000 });
  h.recordSuccess("cfg_1", "gpt-4o", 100, 1000);
  for (let n = 0; n < 1000; n++) h.recordSuccess("cfg_1", `card2-${n}-${"x".repeat(40)}`, 100, 1000);
  const text = new ProviderHealthMetrics(h, isKnown).render();
  const latency = text.split("\n").filter((l) => l.startsWith("gateway_provider_latency_seconds{"));
  expect(latency).toEqual([
    'gateway_provider_latency_seconds{provider_id="cfg_1",model="gpt-4o"} 1',
    'gateway_provider_latency_seconds{provider_id="cfg_1",model="other"} 1',
  ]);
  expect(text).not.toContain("card2-");
  expect(text.split("\n").filter((l) => l.includes('model="')).length).toBe(6);
});

test("the other row averages its models by samples, per configuration", () => {
  const rows = [
    { providerId: "a", model: "x", samples: 3, ttfbMs: 100, totalMs: 1000, errorRate: 0 },
    { providerId: "a", model: "y", samples: 1, ttfbMs: 500, totalMs: 2000, errorRate: 1 },
    { providerId: "a", model: "gpt-4o", samples: 2, ttfbMs: 50, totalMs: 500, errorRate: 0 },
    { providerId: "b", model: "z", samples: 0, ttfbMs: 0, totalMs: 0, errorRate: 0.5 },
    { providerId: "b", model: "other", samples: 0, ttfbMs: 0, totalMs: 0, errorRate: 0.1 },
  ];
  expect(foldUnknownModels(rows, isKnown)).toEqual([
    rows[2]!,
    { providerId: "a", model: "other", samples: 4, ttfbMs: 200, totalMs: 1250, errorRate: 0.25 },
    { providerId: "b", model: "other", samples: 0, ttfbMs: 0, totalMs: 0, errorRate: 0.3 },
  ]);
});
