/**
 * A text read as a model reads it when it was rewritten to slip past a scanner: HTML references
 * decoded, invisible characters removed, compatibility forms folded (NFKC: full-width, mathematical,
 * circled letters, ligatures), other spaces as spaces, combining marks on Latin letters dropped,
 * Greek and Cyrillic look-alikes in Latin words made Latin, leetspeak words read as letters and
 * spelled-out words joined. Only texts the trigger walk found telling signs in are read so
 * (rewritten-chars.ts); each character of the reading keeps where it stands in the text, so a
 * finding in it is named at its raw place.
 */
import { LATIN_LETTERS, LOOKALIKE_LETTERS } from "./confusables.ts";
import { referenceAt } from "./html-references.ts";
import { K_COMPAT, K_FOLDS, K_FORMAT, K_MARK, K_SPACE, K_ZERO_WIDTH, kindAt, LEET_LETTER, leetCue } from "./rewritten-chars.ts";

export interface Normalized {
  text: string;
  /** For each character of `text`, and its end, where it stands in the raw text. */
  at: Int32Array;
}

/** The Latin letter of each look-alike, by its code less 0x370 (0: none). */
const LATIN_OF = new Uint8Array(0x530 - 0x370);
for (let i = 0; i < LOOKALIKE_LETTERS.length; i++) LATIN_OF[LOOKALIKE_LETTERS.charCodeAt(i) - 0x370] = LATIN_LETTERS.charCodeAt(i);

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetterLike = (c: number) => isAsciiLetter(c) || (c >= 0x370 && c < 0x530);
const latinOf = (c: number) => (c >= 0x370 && c < 0x530 ? (LATIN_OF[c - 0x370] as number) : 0);

/** The reading's characters, as codes, with their raw places: built by `emit`, read and rewritten by the word steps. */
interface Reading {
  codes: Uint16Array;
  at: Int32Array;
  n: number;
}

/** Room for `more` characters (a fold can be longer than what it folds: `ﬃ` is three). */
function reserve(r: Reading, more: number): void {
  if (r.n + more <= r.codes.length) return;
  const size = Math.max(r.codes.length * 2, r.n + more);
  const codes = new Uint16Array(size);
  codes.set(r.codes.subarray(0, r.n));
  const at = new Int32Array(size + 1);
  at.set(r.at.subarray(0, r.n));
  r.codes = codes;
  r.at = at;
}

/** Compatibility folds met so far, by character (a full-width text repeats a few dozen). */
const FOLDS = new Map<number, string>();
function foldOf(ch: string, c: number): string {
  const key = ch.length === 1 ? c : (ch.codePointAt(0) as number);
  let f = FOLDS.get(key);
  if (f === undefined) FOLDS.set(key, (f = ch.normalize("NFKC")));
  return f;
}

/** One raw character outside ASCII (or a reference's decoding) at `raw`, folded: what it adds to the reading. */
function emit(r: Reading, ch: string, raw: number): void {
  const c = ch.charCodeAt(0);
  const kind = c < 128 ? 0 : kindAt(ch, 0, c);
  if (kind === K_FORMAT || kind === K_ZERO_WIDTH) return;
  if (kind === K_MARK && r.n > 0 && isAsciiLetter(r.codes[r.n - 1] as number)) return;
  const out = kind === K_SPACE ? " " : kind === K_COMPAT || kind === K_FOLDS ? foldOf(ch, c) : ch;
  reserve(r, out.length);
  for (let k = 0; k < out.length; k++) {
    r.codes[r.n] = out.charCodeAt(k);
    r.at[r.n++] = raw;
  }
}

/** Greek and Cyrillic look-alikes made Latin in every word that holds an ASCII letter too. */
function latinWords(r: Reading): void {
  const { codes, n } = r;
  for (let i = 0; i < n; ) {
    if (!isLetterLike(codes[i] as number)) {
      i++;
      continue;
    }
    let j = i;
    let latin = false;
    let looks = false;
    for (; j < n && isLetterLike(codes[j] as number); j++) {
      if (isAsciiLetter(codes[j] as number)) latin = true;
      else if (latinOf(codes[j] as number) !== 0) looks = true;
    }
    if (latin && looks) for (let k = i; k < j; k++) codes[k] = latinOf(codes[k] as number) || (codes[k] as number);
    i = j;
  }
}

/** Once one word of letters and digits reads as a cue word (rewritten-chars.ts, leetCue), every such word's digits as letters. */
function leetWords(r: Reading): void {
  const { codes, n } = r;
  const words: number[] = [];
  let cue = false;
  for (let i = 0; i < n; ) {
    const c = codes[i] as number;
    if (!isAsciiLetter(c) && !isDigit(c)) {
      i++;
      continue;
    }
    let j = i;
    let letters = false;
    let digits = false;
    for (; j < n && (isAsciiLetter(codes[j] as number) || isDigit(codes[j] as number)); j++)
      if (isDigit(codes[j] as number)) digits = true;
      else letters = true;
    if (letters && digits) {
      words.push(i, j);
      // A cue word is short (leetCue reads at most 24 characters): a longer word is not copied to be looked up.
      cue ||= j - i <= 24 && leetCue(String.fromCharCode(...codes.subarray(i, j)), 0, j - i);
    }
    i = j;
  }
  if (!cue) return;
  for (let w = 0; w < words.length; w += 2)
    for (let k = words[w] as number; k < (words[w + 1] as number); k++)
      if (isDigit(codes[k] as number)) codes[k] = (LEET_LETTER[codes[k] as number] as number) || (codes[k] as number);
}

/**
 * Words spelled out one letter at a time (`i g n o r e   a l l`, `i.g.n.o.r.e`): when a run of five or
 * more one-letter words, each after the same gap (one to three copies of one separator), stands in the
 * text, every such run of two or more is joined, and the blanks between two runs become one space.
 */
function joinSpelled(r: Reading): void {
  const { codes, at, n } = r;
  const code = (k: number) => (k >= 0 && k < n ? (codes[k] as number) : 0);
  const isOne = (k: number) =>
    isAsciiLetter(code(k)) && !isAsciiLetter(code(k - 1)) && !isAsciiLetter(code(k + 1)) && !isDigit(code(k + 1)) && !isDigit(code(k - 1));
  /** The runs, as first and last letter. */
  const runs: number[] = [];
  let longest = 0;
  for (let i = 0; i < n; i++) {
    if (!isOne(i)) continue;
    let end = i;
    let gap = 0;
    let first = 0;
    let count = 1;
    for (;;) {
      const sep = code(end + 1);
      if (sep === 0 || sep === 10 || isAsciiLetter(sep) || isDigit(sep)) break;
      let g = 1;
      while (g <= 3 && code(end + 1 + g) === sep) g++;
      if (g > 3 || (gap !== 0 && (g !== gap || sep !== first)) || !isOne(end + 1 + g)) break;
      gap = g;
      first = sep;
      end += 1 + g;
      count++;
    }
    if (count >= 2) runs.push(i, end);
    longest = Math.max(longest, count);
    i = end;
  }
  if (longest < 5) return;
  const keep = new Uint8Array(n).fill(1);
  for (let k = 0; k < runs.length; k += 2) {
    const from = runs[k] as number;
    const to = runs[k + 1] as number;
    for (let c = from; c <= to; c++) if (!isAsciiLetter(codes[c] as number)) keep[c] = 0;
    if (k + 2 >= runs.length) break;
    // Blanks alone between two runs: one space.
    const next = runs[k + 2] as number;
    let blanks = true;
    for (let c = to + 1; c < next; c++) blanks &&= codes[c] === 32;
    if (blanks) for (let c = to + 2; c < next; c++) keep[c] = 0;
  }
  let w = 0;
  for (let k = 0; k < n; k++)
    if (keep[k]) {
      codes[w] = codes[k] as number;
      at[w] = at[k] as number;
      w++;
    }
  r.n = w;
}

/** The text normalized as above, or null when that changes nothing. */
export function normalizeText(text: string): Normalized | null {
  const r: Reading = { codes: new Uint16Array(text.length + 16), at: new Int32Array(text.length + 17), n: 0 };
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c < 128 && c !== 38) {
      reserve(r, 1);
      r.codes[r.n] = c;
      r.at[r.n++] = i++;
      continue;
    }
    if (c === 38) {
      const ref = referenceAt(text, i);
      if (ref !== null) {
        for (const ch of ref.decoded) emit(r, ch, i);
        i = ref.end;
        continue;
      }
    }
    const wide = c >= 0xd800 && c < 0xdc00 && i + 1 < text.length ? 2 : 1;
    emit(r, text.slice(i, i + wide), i);
    i += wide;
  }
  latinWords(r);
  leetWords(r);
  joinSpelled(r);
  let out = "";
  for (let k = 0; k < r.n; k += 4096) out += String.fromCharCode(...r.codes.subarray(k, Math.min(k + 4096, r.n)));
  if (out === text) return null;
  r.at[r.n] = text.length;
  return { text: out, at: r.at.subarray(0, r.n + 1) };
}
