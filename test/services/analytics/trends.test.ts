import { expect, test } from "bun:test";
import type { UsageHourly } from "../../../src/domain/types.ts";
import { dailyAverage, efficiencyScore, weeklyGrowth } from "../../../src/services/analytics/trends.ts";

const row = (costMicros: number, requests: number, errors: number): UsageHourly => ({
  orgId: "o",
  hour: 0,
  keyId: "k",
  provider: "openai",
  model: "gpt-4o",
  requests,
  errors,
  promptTokens: 0,
  completionTokens: 0,
  costMicros,
  latencyMsSum: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

test("weekly growth is the last 7 days over the 7 before", () => {
  expect(weeklyGrowth([...Array(7).fill(10), ...Array(7).fill(15)])).toBe(50);
  expect(weeklyGrowth([...Array(7).fill(20), ...Array(7).fill(10)])).toBe(-50);
  expect(weeklyGrowth([])).toBe(0);
  expect(weeklyGrowth([0, 0, 0, 5])).toBe(100);
});

test("daily average", () => {
  expect(dailyAverage([1, 2, 3, 6])).toBe(3);
  expect(dailyAverage([])).toBe(0);
});

test("efficiency is the share of spend on successful answers", () => {
  // 100 on all-good rows, 100 on a row with half its requests failed: 150 of 200 useful.
  expect(efficiencyScore([row(100, 4, 0), row(100, 2, 1)])).toBe(75);
  expect(efficiencyScore([])).toBe(100);
  expect(efficiencyScore([row(0, 3, 3)])).toBe(100);
});
