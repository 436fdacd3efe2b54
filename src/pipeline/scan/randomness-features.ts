/** What the randomness model reads of a value (randomness.ts, and scanner/fit-randomness.ts that fits it). */

export const FEATURES = 6;

/** a-z (any case), a digit, anything else; 28 is the value's start and end. */
function symbol(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code >= 65 && code <= 90) return code - 65;
  return code >= 48 && code <= 57 ? 26 : 27;
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * The features, each near 0..1: how unlike words and names its letter pairs are (mean bits
 * a pair costs under the bigram table, over 8), how often the case changes between
 * letters (camelCase changes at word starts only), how often letters and digits alternate,
 * the share of digits, the length (log2, over 8), and the share of distinct characters.
 */
export function features(value: string, bigram: readonly (readonly number[])[]): number[] {
  let bits = 0;
  let a = 28;
  let flips = 0;
  let letterPairs = 0;
  let switches = 0;
  let digitCount = 0;
  let prev = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const b = symbol(c);
    bits += (bigram[a] as readonly number[])[b] as number;
    a = b;
    if (isDigit(c)) digitCount++;
    if (prev >= 0) {
      if (isLetter(prev) && isLetter(c)) {
        letterPairs++;
        if (prev >= 97 !== c >= 97) flips++;
      }
      if ((isLetter(prev) && isDigit(c)) || (isDigit(prev) && isLetter(c))) switches++;
    }
    prev = c;
  }
  bits += (bigram[a] as readonly number[])[28] as number;
  const n = value.length;
  return [
    bits / (n + 1) / 8,
    letterPairs ? flips / letterPairs : 0,
    n > 1 ? switches / (n - 1) : 0,
    digitCount / n,
    Math.log2(n) / 8,
    new Set(value).size / n,
  ];
}
