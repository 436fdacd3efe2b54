/** Whether a scan's time grew faster than its text: the judgement of bench/linearity.ts, apart so it can be tested. */

export interface ShapeTiming {
  shape: string;
  /** Best of the tries, milliseconds, at the base size, twice it and four times it. */
  ms: readonly [number, number, number];
}

/**
 * Linear work doubles when the text doubles; quadratic work quadruples, but a quadratic
 * term may only dominate at the largest size (a pass comparing every pair of thousands of
 * findings read x3.0 over the top doubling, x8.2 over the whole, where linear reads x2 and
 * x4). A shape fails when both its top doubling and its whole growth are over the linear
 * growth by the slacks: one disturbed reading does not fail it, and a step of the caches or
 * the collector between the two smaller sizes (percent escapes read x3.8 over the whole, x1.9
 * at the top) is not taken for one. A text read in under `floorMs` at the largest size passes:
 * the timer's grain would decide there, and nothing that fast holds a core.
 */
export function superlinear(timings: readonly ShapeTiming[], topSlack = 1.3, wholeSlack = 1.6, floorMs = 2): ShapeTiming[] {
  return timings.filter(
    ({ ms: [base, double, quadruple] }) => quadruple >= floorMs && quadruple > double * 2 * topSlack && quadruple > base * 4 * wholeSlack,
  );
}
