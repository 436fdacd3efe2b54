import { describe, expect, test } from "bun:test";
import { superlinear } from "../../bench/lib/linearity-verdict.ts";

describe("the linearity check's verdict", () => {
  test("linear growth passes, and so does one disturbed reading", () => {
    const timings = [
      { shape: "linear", ms: [50, 100, 200] as const },
      { shape: "disturbed top", ms: [50, 100, 290] as const },
      { shape: "a step between the smaller sizes", ms: [15, 57, 115] as const },
    ];
    expect(superlinear(timings)).toEqual([]);
  });

  test("quadratic growth fails, and names the shape", () => {
    const quadratic = { shape: "dense findings", ms: [115, 312, 948] as const };
    expect(superlinear([{ shape: "fine", ms: [10, 20, 40] as const }, quadratic])).toEqual([quadratic]);
  });

  test("a text read under the floor at the largest size passes whatever its growth (the timer's grain)", () => {
    expect(superlinear([{ shape: "spaces", ms: [0.01, 0.1, 1.5] as const }])).toEqual([]);
    expect(superlinear([{ shape: "slow", ms: [0.05, 0.5, 2.5] as const }])).toHaveLength(1);
  });
});
