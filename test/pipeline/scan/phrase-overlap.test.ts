/** The overlap of counted phrases by bisection gives what reading every phrase gives. */
import { describe, expect, test } from "bun:test";
import { type CountedPhrase, overlappingWeight, sortPhrases } from "../../../src/pipeline/scan/phrase-overlap.ts";

/** The reading it replaces: every phrase looked at. */
const byReadingAll = (phrases: readonly CountedPhrase[], start: number, end: number) =>
  phrases.reduce((sum, c) => (c.start < end && c.end > start ? sum + c.weight : sum), 0);

describe("overlappingWeight", () => {
  test("agrees with reading every phrase, on seeded phrases of mixed lengths, in push order not sorted", () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 50; round++) {
      const phrases: CountedPhrase[] = [];
      for (let i = 0; i < 40; i++) {
        const start = next(500);
        phrases.push({ start, end: start + 1 + next(round % 5 === 0 ? 300 : 30), weight: (1 + next(4)) / 4 });
      }
      const sorted = sortPhrases(phrases);
      for (let q = 0; q < 40; q++) {
        const start = next(520);
        const end = start + 1 + next(60);
        expect(overlappingWeight(sorted, start, end)).toBe(byReadingAll(phrases, start, end));
      }
    }
  });

  test("touching spans do not overlap; none counted is zero", () => {
    const sorted = sortPhrases([{ start: 10, end: 20, weight: 1 }]);
    expect(overlappingWeight(sorted, 20, 30)).toBe(0);
    expect(overlappingWeight(sorted, 0, 10)).toBe(0);
    expect(overlappingWeight(sorted, 19, 21)).toBe(1);
    expect(overlappingWeight(sortPhrases([]), 0, 100)).toBe(0);
  });
});
