import { expect, test } from "bun:test";
import type { UsageEvent } from "../../src/domain/types.ts";
import { DAY_MS, rollUpDaily, rollUpHourly } from "../../src/store/hourly-rollup.ts";
import { usageEvent } from "../support/records.ts";

const HOUR = 3_600_000;
const event = (over: Partial<UsageEvent>): UsageEvent =>
  usageEvent("org_a", "key_a", { id: "evt", requestId: "req", createdAt: 5 * HOUR + 1, ...over });

test("events of one row add up (cache tokens too, none when an event has none); another hour, key, model or organization is another row", () => {
  const rows = rollUpHourly([
    event({}),
    event({ status: 502, costMicros: 7, latencyMs: 30, createdAt: 6 * HOUR - 1, cacheReadTokens: 6, cacheWriteTokens: 2 }),
    event({ createdAt: 6 * HOUR }),
    event({ keyId: null }),
    event({ model: "gpt-4o-mini" }),
    event({ orgId: "org_b" }),
  ]);
  expect(rows).toHaveLength(5);
  expect(rows[0]).toEqual({
    orgId: "org_a",
    hour: 5 * HOUR,
    keyId: "key_a",
    provider: "openai",
    model: "gpt-4o",
    requests: 2,
    errors: 1,
    promptTokens: 20,
    completionTokens: 10,
    costMicros: 107,
    latencyMsSum: 50,
    cacheReadTokens: 6,
    cacheWriteTokens: 2,
  });
  expect(rows.map((r) => [r.hour / HOUR, r.keyId, r.model, r.orgId])).toEqual([
    [5, "key_a", "gpt-4o", "org_a"],
    [6, "key_a", "gpt-4o", "org_a"],
    [5, "", "gpt-4o", "org_a"],
    [5, "key_a", "gpt-4o-mini", "org_a"],
    [5, "key_a", "gpt-4o", "org_b"],
  ]);
});

test("a run of one row's events, broken and taken up again, still sums into that row alone", () => {
  const rows = rollUpHourly([
    event({}),
    event({}),
    event({ keyId: null }),
    event({ keyId: "" }),
    event({ costMicros: 1 }),
    event({ createdAt: 6 * HOUR }),
    event({}),
  ]);
  expect(rows.map((r) => [r.hour / HOUR, r.keyId, r.requests, r.costMicros])).toEqual([
    [5, "key_a", 4, 301],
    [5, "", 2, 200],
    [6, "key_a", 1, 100],
  ]);
});

test("daily rows drop the key and part by day, provider, model and application", () => {
  const rows = rollUpDaily([
    event({}),
    event({ keyId: "key_b" }),
    event({ applicationId: "app", cacheReadTokens: 4 }),
    event({ applicationId: "app", provider: "anthropic", cacheWriteTokens: 3 }),
    event({ createdAt: DAY_MS + 1 }),
    event({ keyId: null }),
  ]);
  expect(
    rows.map((r) => [r.hour / DAY_MS, r.provider, r.applicationId, r.keyId, r.requests, r.cacheReadTokens, r.cacheWriteTokens]),
  ).toEqual([
    [0, "openai", "", "", 3, 0, 0],
    [0, "openai", "app", "", 1, 4, 0],
    [0, "anthropic", "app", "", 1, 0, 3],
    [1, "openai", "", "", 1, 0, 0],
  ]);
});
