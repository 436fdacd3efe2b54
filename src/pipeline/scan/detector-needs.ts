/** A detector's `needs` (detector.ts) as a test of a start: whether a match could begin there at all. */
import type { Detector } from "./detector.ts";

/** True when the text holds one of the needed characters within reach of `p`; null for a detector that needs nothing. */
export type NeedsTest = ((text: string, p: number) => boolean) | null;

export function needsTest(d: Detector): NeedsTest {
  if (!d.needs) return null;
  const { anyOf, within } = d.needs;
  const table = new Uint8Array(128);
  for (let k = 0; k < anyOf.length; k++) {
    const c = anyOf.charCodeAt(k);
    if (c >= 128) throw new Error(`${d.kind}: needs lists ASCII characters only`);
    table[c] = 1;
  }
  return (text, p) => {
    const end = Math.min(text.length, p + within);
    for (let i = p; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 128 && table[c] === 1) return true;
    }
    return false;
  };
}

/** Whether any of the detectors `list` names (by place in `tests`) could match at `p`. */
export function anyReachable(tests: readonly NeedsTest[], list: readonly number[], text: string, p: number): boolean {
  for (let k = 0; k < list.length; k++) {
    const test = tests[list[k] as number];
    if (!test || test(text, p)) return true;
  }
  return false;
}
