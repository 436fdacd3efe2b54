import { expect, test } from "bun:test";
import { findAnomalies, severityOf } from "../../../src/services/analytics/anomalies.ts";

// A week alternating 90/110: mean 100 over any 7 days is 100 +- 10/7, spread about 9.9.
const week = [90, 110, 90, 110, 90, 110, 90];

test("a planted spike is an anomaly with the right severity", () => {
  const mean = week.reduce((a, b) => a + b, 0) / 7;
  const sd = Math.sqrt(week.reduce((s, y) => s + (y - mean) ** 2, 0) / 7);
  const spike = mean + 3.5 * sd;
  const found = findAnomalies([...week, spike]);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ index: 7, severity: "medium" });
  expect(found[0]!.expectedCost).toBeCloseTo(mean, 9);
  expect(found[0]!.deviation).toBeCloseTo(3.5, 9);
});

test("ordinary days and short histories are not anomalies", () => {
  expect(findAnomalies([...week, 110, 90, 110])).toEqual([]);
  expect(findAnomalies([])).toEqual([]);
  expect(findAnomalies([5, 500, 5])).toEqual([]);
});

test("a drop counts as well as a rise", () => {
  const found = findAnomalies([...week, 0]);
  expect(found).toHaveLength(1);
  expect(found[0]!.deviation).toBeLessThan(-4);
  expect(found[0]!.severity).toBe("high");
});

test("a flat week followed by a change is judged against a floored spread", () => {
  // Spread floored at 1% of 100 = 1: 103 is 3 deviations (medium), 100.5 is nothing.
  expect(findAnomalies([...Array(7).fill(100), 103])[0]).toMatchObject({ severity: "medium" });
  expect(findAnomalies([...Array(7).fill(100), 100.5])).toEqual([]);
});

test("severity bands", () => {
  expect(severityOf(2.5)).toBe("low");
  expect(severityOf(-3)).toBe("medium");
  expect(severityOf(3.99)).toBe("medium");
  expect(severityOf(4)).toBe("high");
});
