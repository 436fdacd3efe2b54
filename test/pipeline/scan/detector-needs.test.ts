/**
 * A detector's `needs` (detector-needs.ts): the test itself, and, for every detector that
 * declares one, that its expression never matches where the test says no match can begin,
 * on texts built to put the needed character at every distance up to and past its reach.
 */
import { describe, expect, test } from "bun:test";
import type { Detector } from "../../../src/pipeline/scan/detector.ts";
import { anyReachable, needsTest } from "../../../src/pipeline/scan/detector-needs.ts";
import { ALL_DETECTORS, foldsCase } from "../../../src/pipeline/scan/engine.ts";

const needing = (anyOf: string, within: number): Detector => ({ kind: "k", category: "secret", pattern: "x", needs: { anyOf, within } });

describe("the test of a start", () => {
  const reach = needsTest(needing("7\n", 5));
  test("true when a needed character stands within the reach, counted from the start", () => {
    expect(reach?.("abcd7", 0)).toBe(true);
    expect(reach?.("abcd\n", 0)).toBe(true);
    expect(reach?.("zzabcd7", 2)).toBe(true);
  });
  test("false past the reach, before the start, or at the text's end", () => {
    expect(reach?.("abcde7", 0)).toBe(false);
    expect(reach?.("7abcdef", 1)).toBe(false);
    expect(reach?.("abc", 0)).toBe(false);
  });
  test("a detector that needs nothing has no test, and passes any list it is in", () => {
    const tests = [needsTest({ kind: "k", category: "secret", pattern: "x" }), reach];
    expect(tests[0]).toBeNull();
    expect(anyReachable(tests, [1], "abcdef", 0)).toBe(false);
    expect(anyReachable(tests, [0, 1], "abcdef", 0)).toBe(true);
    expect(anyReachable(tests, [1], "ab7", 0)).toBe(true);
  });
  test("only ASCII characters can be needed", () => {
    expect(() => needsTest(needing("é", 3))).toThrow("ASCII");
  });
});

/** The literals a detector's start names (the first, longest, and the last). */
function literalsOf(d: Detector): string[] {
  const starts = Array.isArray(d.start) ? d.start : [d.start];
  const out: string[] = [];
  for (const s of starts) if (s && "literals" in s) out.push(s.literals[0] as string, s.literals.at(-1) as string);
  return out;
}

/** A name, a rest of a name, a gap of blanks and a value whose first sign stands `lead` letters in. */
function probes(d: Detector): string[] {
  const texts: string[] = [];
  for (const name of literalsOf(d))
    for (const rest of ["", "es", `.${"a".repeat(40)}`, `er.${"b".repeat(40)}`])
      for (let gap = 0; gap <= 60; gap++)
        for (const lead of [0, 7, 20]) {
          const value = `${"q".repeat(lead)}7Rf2kLmZp9`;
          texts.push(`x ${name}${rest}${" ".repeat(gap)}${value} y`, `${name}${rest}:\n${" ".repeat(gap % 17)}${value}`);
        }
  return texts;
}

describe("every detector that declares what it needs", () => {
  const declared = ALL_DETECTORS.filter((d) => d.needs);
  test("some do", () => {
    expect(declared.length).toBeGreaterThan(0);
  });
  for (const d of declared)
    test(`${d.kind} (${d.pattern.slice(0, 40)}…): no match begins out of reach`, () => {
      const regex = new RegExp(d.pattern, foldsCase(d) ? "iy" : "y");
      const reach = needsTest(d) as NonNullable<ReturnType<typeof needsTest>>;
      const needed = new Set(d.needs?.anyOf);
      let matches = 0;
      let farthest = 0;
      for (const text of probes(d))
        for (let p = 0; p < text.length; p++) {
          regex.lastIndex = p;
          if (regex.exec(text) === null) continue;
          matches++;
          expect(reach(text, p)).toBe(true);
          let first = p;
          while (!needed.has(text.charAt(first))) first++;
          farthest = Math.max(farthest, first - p);
        }
      // The probes reach the bound: a needed character just inside it still matched.
      expect(matches).toBeGreaterThan(0);
      expect(farthest).toBeGreaterThanOrEqual((d.needs?.within ?? 0) - 12);
    });
});
