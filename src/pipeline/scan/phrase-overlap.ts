/**
 * What the injection phrases the shared passes counted weigh under a span: a rule tried
 * apart counts only what its reading adds over them. A dense text has thousands of both,
 * so each question is answered by bisection over the phrases sorted once, not by reading
 * every phrase (which made a 2 MB text of findings quadratic).
 */
import { firstStartingFrom } from "./sorted-starts.ts";

/** An injection phrase a pass counted, with the weight it added. */
export interface CountedPhrase {
  start: number;
  end: number;
  weight: number;
}

/** Counted phrases sorted by start, with the longest one's length (how far back an overlap can begin). */
export interface SortedPhrases {
  phrases: CountedPhrase[];
  longest: number;
}

export function sortPhrases(phrases: readonly CountedPhrase[]): SortedPhrases {
  const sorted = phrases.slice().sort((a, b) => a.start - b.start);
  let longest = 0;
  for (const p of sorted) if (p.end - p.start > longest) longest = p.end - p.start;
  return { phrases: sorted, longest };
}

/** The summed weight of the phrases overlapping [start, end). */
export function overlappingWeight({ phrases, longest }: SortedPhrases, start: number, end: number): number {
  let sum = 0;
  // From the last phrase that starts before `end` (none after it overlaps) back.
  for (let i = firstStartingFrom(phrases, end) - 1; i >= 0; i--) {
    const p = phrases[i] as CountedPhrase;
    // Starting this far back, it (and every one before it) ended before `start`.
    if (p.start <= start - longest) break;
    if (p.end > start) sum += p.weight;
  }
  return sum;
}
