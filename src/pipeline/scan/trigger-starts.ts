/** What the trigger plan reads from a detector and a gate: its starts (declared, or its pattern's leading literals), an assignment's name as a look-behind, and where a gate keyword is looked for. */
import type { Detector, Start } from "./detector.ts";
import { leadingLiterals } from "./leading-literals.ts";
import { setBit } from "./trigger-chars.ts";

export function startsOf(d: Detector): readonly Start[] {
  if (d.start) return Array.isArray(d.start) ? d.start : [d.start as Start];
  const literals = leadingLiterals(d.pattern);
  if (!literals) throw new Error(`detector ${d.kind}: its pattern does not open with \\b and literals, so it must declare where it starts`);
  return [{ at: "word", literals }];
}

/**
 * A pattern that ends with `$` (an assignment's name, read in the 20 characters before
 * its sign) as a sticky look-behind, tried at their end: the same verdict, since a
 * match ending there is a suffix of them either way, read backwards from the sign, so a
 * comma in prose fails at the letter before it instead of the pattern being tried from
 * each of the 20. Any other pattern is kept as it is (it ignores `lastIndex`).
 */
export function endingAt(name: RegExp): RegExp {
  const source = name.source;
  const anchored = /(?:^|[^\\])(?:\\\\)*\$$/.test(source);
  if (!anchored || name.flags.replace("i", "") !== "" || /\\[1-9]|\\k</.test(source)) return name;
  return new RegExp(`(?<=${source.slice(0, -1)})`, `${name.flags}y`);
}

/** Two-character endings (lower case, ASCII) as one bit each at `first * 128 + second`. */
export function pairBits(pairs: readonly string[]): Uint8Array {
  const bits = new Uint8Array(2048);
  for (const pair of pairs) setBit(bits, pair.charCodeAt(0) * 128 + pair.charCodeAt(1));
  return bits;
}

/**
 * A gate keyword made of word characters is looked for where a word begins, like a
 * word literal; one with other characters anywhere, by its first such character.
 */
export const gateByPunctuation = (keyword: string) => keyword.search(/\W/);
