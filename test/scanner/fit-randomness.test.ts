/**
 * The character model the generic credential detector reads (src/pipeline/scan/randomness-model.ts)
 * is what scanner/fit-randomness.ts fits from the pools' benign rows and its seeded draws, and its
 * errors on that data stay small.
 */
import { expect, test } from "bun:test";
import { fitRandomness } from "../../scanner/fit-randomness.ts";
import { BIGRAM_BITS, THRESHOLD, WEIGHTS } from "../../src/pipeline/scan/randomness-model.ts";

test("the committed model is the fit's, and the fit errs on few of its own tokens", () => {
  const model = fitRandomness();
  expect(model.bigram).toEqual(BIGRAM_BITS.map((row) => [...row]));
  expect(model.weights).toEqual([...WEIGHTS]);
  expect(model.threshold).toBe(THRESHOLD);
  expect(model.taken.length / model.natural).toBeLessThan(0.005);
  expect(model.missed.length / model.generated).toBeLessThan(0.02);
});
