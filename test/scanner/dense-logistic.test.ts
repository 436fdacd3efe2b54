/**
 * The dense logistic regression and threshold rule of the sentence-encoder measurement
 * (scanner/dense-logistic.ts): a separable toy set is separated, the fit is the same every
 * run, and the quantile leaves the asked share of weight above it, each source counting alike.
 */
import { expect, test } from "bun:test";
import { random } from "../../scanner/carriers.ts";
import { type DenseExample, denseLogit, fitLogistic, weightedQuantile } from "../../scanner/dense-logistic.ts";

/** Two clouds in 8 dimensions, apart on the first two, noise on the rest; the features on unequal scales. */
function clouds(n: number, seed: number): DenseExample[] {
  const next = random(seed);
  return Array.from({ length: n }, (_, i) => {
    const label = (i % 3 === 0 ? 1 : 0) as 0 | 1;
    const x = Float32Array.from({ length: 8 }, (_, k) => (k < 2 ? (label ? 0.02 : -0.02) * (k + 1) : 0) + (next() - 0.5) * 0.01 * (k + 1));
    return { x, label, weight: 1 };
  });
}

test("a separable set is separated, on examples it was not fitted on too", () => {
  const m = fitLogistic(clouds(300, 1));
  const unseen = clouds(200, 2);
  for (const e of unseen) expect(denseLogit(m, e.x) > 0).toBe(e.label === 1);
});

test("the fit is deterministic for a seed", () => {
  const data = clouds(120, 3);
  expect([...fitLogistic(data).weights]).toEqual([...fitLogistic(data).weights]);
});

test("the quantile leaves the asked share of weight above it", () => {
  const scores = Array.from({ length: 1000 }, (_, i) => ({ score: i, weight: 1 }));
  expect(weightedQuantile(scores, 0.001)).toBe(998);
  expect(weightedQuantile(scores, 0.03)).toBe(969);
  // One source of 10 rows weighing as much as one of 990: its top row alone is 5% of the weight.
  const two = [
    ...Array.from({ length: 990 }, (_, i) => ({ score: i / 1000, weight: 1 / 990 })),
    ...Array.from({ length: 10 }, (_, i) => ({ score: 10 + i, weight: 1 / 10 })),
  ];
  expect(weightedQuantile(two, 0.04)).toBe(19);
  expect(weightedQuantile(two, 0.06)).toBe(18);
});
