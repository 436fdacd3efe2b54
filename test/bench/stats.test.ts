import { describe, expect, test } from "bun:test";
import { median, percentile } from "../../bench/lib/stats.ts";

describe("benchmark statistics", () => {
  test("percentiles are nearest-rank over unsorted samples", () => {
    const samples = [50, 10, 40, 20, 30, 60, 70, 80, 90, 100];
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 90)).toBe(90);
    expect(percentile(samples, 99)).toBe(100);
    expect(percentile(samples, 0)).toBe(10);
    expect(percentile(samples, 100)).toBe(100);
  });

  test("the median of an odd count is the middle sample; of an even count, the lower middle one", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2);
  });

  test("no samples have no percentile", () => {
    expect(percentile([], 50)).toBeNaN();
  });

  test("samples are compared as numbers, not as text", () => {
    expect(median([9, 10, 100])).toBe(10);
  });
});
