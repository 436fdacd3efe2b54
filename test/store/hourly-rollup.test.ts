import { expect, test } from "bun:test";
import type { UsageEvent } from "../../src/domain/types.ts";
import { rollUpHourly } from "../../src/store/hourly-rollup.ts";

const HOUR = 3_600_000;
const event = (over: Partial<UsageEvent>): UsageEvent => ({
  id: "evt",
  requestId: "req",
  orgId: "org_a",
  keyId: "key_a",
  userId: null,
  provider: "openai",
  model: "gpt-4o",
  promptTokens: 10,
  completionTokens: 5,
  costMicros: 100,
  latencyMs: 20,
  status: 200,
  errorCode: null,
  createdAt: 5 * HOUR + 1,
  ...over,
});

test("events of one row add up; another hour, key, model or organization is another row", () => {
  const rows = rollUpHourly([
    event({}),
    event({ status: 502, costMicros: 7, latencyMs: 30, createdAt: 6 * HOUR - 1 }),
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
  });
  expect(rows.map((r) => [r.hour / HOUR, r.keyId, r.model, r.orgId])).toEqual([
    [5, "key_a", "gpt-4o", "org_a"],
    [6, "key_a", "gpt-4o", "org_a"],
    [5, "", "gpt-4o", "org_a"],
    [5, "key_a", "gpt-4o-mini", "org_a"],
    [5, "key_a", "gpt-4o", "org_b"],
  ]);
});
