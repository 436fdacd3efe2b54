/**
 * The characters the trigger walk compares and the keys it files literals under: case folded
 * as the `i` flag folds it, three- and four-letter keys, bit tables. Shared by the plan that
 * fills the tables and the walk that reads them.
 */
/** Latin-1 lower case (the case-folding pass compares with `i`, which folds Latin-1 too). */
export const LOWER = new Uint16Array(256).map((_, c) => String.fromCharCode(c).toLowerCase().charCodeAt(0));
/** A character as the `i` flag (without `u`) compares it: its capital when that is one character, and not ASCII for a non-ASCII one. */
const canonical = (ch: string) => {
  const up = ch.toUpperCase();
  return up.length === 1 && !(ch.charCodeAt(0) >= 128 && up.charCodeAt(0) < 128) ? up : ch;
};
/**
 * The alphabets with case below FOLD_END (Latin, Greek, Cyrillic, Armenian, Georgian, Cherokee, Latin Extended Additional
 * as Vietnamese writes it, Greek Extended), folded as the `i` flag folds them: to the lower case that has the same capital.
 * Only these ranges are read when the table is built (a millisecond less than reading them all); the rest maps to itself.
 */
const FOLD_END = 0x2000;
const CASED: readonly [number, number][] = [
  [0x100, 0x590],
  [0x10a0, 0x1100],
  [0x13a0, 0x1400],
  [0x1c80, 0x1cc0],
  [0x1e00, 0x2000],
];
const FOLD = new Uint16Array(FOLD_END).map((_, c) => c);
for (const [from, to] of CASED)
  for (let c = from; c < to; c++) {
    const ch = String.fromCharCode(c);
    const l = ch.toLowerCase();
    if (l.length === 1 && canonical(l) === canonical(ch)) FOLD[c] = l.charCodeAt(0);
  }
/** Lower case for literal comparisons: Latin-1 by table, then the letters of other alphabets a literal of another language may meet in capitals (`POKAŻ`, `ИГНОРИРУЙ`, `CHIA SẺ`). */
export const lower = (c: number) => (c < 256 ? (LOWER[c] as number) : c < FOLD_END ? (FOLD[c] as number) : c);
/** The characters of a case-folding literal that `lower` does not fold as the `i` flag does: a literal with any is refused. */
export const unfoldable = (text: string): string[] =>
  // ASCII folds as `i` folds it; most literals are ASCII, and this runs for each at start-up.
  /^[\x00-\x7f]*$/.test(text)
    ? []
    : [...text].filter((ch) => ch.length !== 1 || lower(canonical(ch).charCodeAt(0)) !== lower(ch.charCodeAt(0)));
/** Two characters of any script as a bit of `widePairs`. */
export const widePair = (a: number, b: number) => Math.imul(((a & 0xffff) << 16) | (b & 0xffff), 0x9e3779b1) >>> 16;
/** Three or four Latin-1 characters, lower-cased, as one number. */
export const key3 = (a: number, b: number, c: number) => ((LOWER[a] as number) << 16) | ((LOWER[b] as number) << 8) | (LOWER[c] as number);
export const key4 = (k3: number, d: number) => ((k3 << 8) | (LOWER[d] as number)) >>> 0;
export const seenSlot = (key: number) => Math.imul(key, 0x9e3779b1) >>> 16;
/** Bit `i` of a bit table (65,536 bits in 8 KB). */
export const hasBit = (bits: Uint8Array, i: number) => ((bits[i >>> 3] as number) >>> (i & 7)) & 1;
export const setBit = (bits: Uint8Array, i: number) => {
  bits[i >>> 3] = (bits[i >>> 3] as number) | (1 << (i & 7));
};
/** Past the end: above Latin-1, so it is no letter, digit or literal character. */
export const PAST_END = 0x10000;
/**
 * The character at `k`, or PAST_END. Nothing here reads past a string's end or a
 * table's: once a read has, the JIT compiles every read at that place for the
 * out-of-bounds case, which slows the whole walk.
 */
export const charAt = (text: string, k: number) => (k < text.length ? text.charCodeAt(k) : PAST_END);
export const isDigit = (c: number) => c >= 48 && c <= 57;
export const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
export const isCapital = (c: number) => c >= 65 && c <= 90;
/** JavaScript's `\s`, for the blanks a line-start pattern may skip. */
export const isBlank = (c: number) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
