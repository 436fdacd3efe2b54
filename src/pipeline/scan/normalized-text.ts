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
import { accentBase, mayBeAccented } from "./rewritten-words.ts";
import { isAsciiLetter, isDigit } from "./trigger-chars.ts";

export interface Normalized {
  text: string;
  /** For each character of `text`, and its end, where it stands in the raw text. */
  at: Int32Array;
}

/** The Latin letter of each look-alike, by its code less 0x370 (0: none). */
const LATIN_OF = new Uint8Array(0x530 - 0x370);
for (let i = 0; i < LOOKALIKE_LETTERS.length; i++) LATIN_OF[LOOKALIKE_LETTERS.charCodeAt(i) - 0x370] = LATIN_LETTERS.charCodeAt(i);

const isLetterLike = (c: number) => isAsciiLetter(c) || (c >= 0x370 && c < 0x530);
const latinOf = (c: number) => (c >= 0x370 && c < 0x530 ? (LATIN_OF[c - 0x370] as number) : 0);

/** The reading's characters, as codes, with their raw places: built by `emit`, read and rewritten by the word steps. */
interface Reading {
  codes: Uint16Array;
  at: Int32Array;
  n: number;
  /** Whether a Greek or Cyrillic letter, and a digit, are in it: the word steps that need one are skipped without. */
  greekOrCyrillic: boolean;
  digits: boolean;
  /** Whether precomposed accented Latin letters are read as the ASCII letters under them (`ì` as `i`). */
  accents: boolean;
}

/** codes[from, to) as a string, in slices `fromCharCode` takes as arguments (spreading a typed array walks its iterator, several times slower). */
function textOf(codes: Uint16Array, from: number, to: number): string {
  let out = "";
  for (let k = from; k < to; k += 4096)
    out += String.fromCharCode.apply(null, codes.subarray(k, Math.min(k + 4096, to)) as unknown as number[]);
  return out;
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

/** Compatibility folds met so far, by code point (a full-width text repeats a few dozen). */
const FOLDS = new Map<number, string>();
function foldOf(s: string, i: number, width: number): string {
  const cp = s.codePointAt(i) as number;
  let f = FOLDS.get(cp);
  if (f === undefined) FOLDS.set(cp, (f = s.slice(i, i + width).normalize("NFKC")));
  return f;
}

/**
 * The character at `i` of `s` (code `c`, one or two code units: `width`), folded, at `raw`: what
 * it adds to the reading. Most characters of a text are kept as they are, without a string made.
 */
function emit(r: Reading, s: string, i: number, c: number, width: number, raw: number): void {
  const kind = c < 128 ? 0 : kindAt(s, i, c);
  if (kind === K_FORMAT || kind === K_ZERO_WIDTH) return;
  if (kind === K_MARK && r.n > 0 && isAsciiLetter(r.codes[r.n - 1] as number)) return;
  if (kind === K_SPACE || kind === K_COMPAT || kind === K_FOLDS) {
    const out = kind === K_SPACE ? " " : foldOf(s, i, width);
    reserve(r, out.length);
    for (let k = 0; k < out.length; k++) {
      const o = out.charCodeAt(k);
      if (o >= 48 && o <= 57) r.digits = true;
      r.codes[r.n] = o;
      r.at[r.n++] = raw;
    }
    return;
  }
  if (c >= 0x370 && c < 0x530) r.greekOrCyrillic = true;
  else if (r.accents && mayBeAccented(c) && accentBase(c) !== 0) c = accentBase(c);
  if (r.n + width > r.codes.length) reserve(r, width);
  r.codes[r.n] = c;
  r.at[r.n++] = raw;
  if (width === 2) {
    r.codes[r.n] = s.charCodeAt(i + 1);
    r.at[r.n++] = raw;
  }
}

const widthAt = (s: string, i: number, c: number) => (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length ? 2 : 1);

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
      cue ||= j - i <= 24 && leetCue(textOf(codes, i, j), 0, j - i);
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
  /** The runs, as first and last letter. */
  const runs: number[] = [];
  let longest = 0;
  let first = -1;
  let last = -1;
  let count = 0;
  let gap = 0;
  let sep = 0;
  const close = () => {
    if (count >= 2) runs.push(first, last);
    if (count > longest) longest = count;
    count = 0;
  };
  for (let k = 0; k < n; k++) {
    const c = codes[k] as number;
    if (!isAsciiLetter(c) && !isDigit(c)) continue;
    // A word of letters and digits, read to its end: only a one-letter word is looked at further.
    let end = k + 1;
    while (end < n && (isAsciiLetter(codes[end] as number) || isDigit(codes[end] as number))) end++;
    if (end - k !== 1 || !isAsciiLetter(c)) {
      close();
      k = end - 1;
      continue;
    }
    const g = k - last - 1;
    const s = codes[last + 1] as number;
    let same = count > 0 && g >= 1 && g <= 3 && s !== 10 && (count === 1 || (g === gap && s === sep));
    for (let x = last + 2; same && x < k; x++) same = codes[x] === s;
    if (same) {
      gap = g;
      sep = s;
      count++;
    } else {
      close();
      first = k;
      count = 1;
    }
    last = k;
  }
  close();
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

/** The text normalized as above (with `accents`, accented Latin letters read without them), or null when that changes nothing. */
export function normalizeText(text: string, accents = false): Normalized | null {
  const r: Reading = {
    codes: new Uint16Array(text.length + 16),
    at: new Int32Array(text.length + 17),
    n: 0,
    greekOrCyrillic: false,
    digits: false,
    accents,
  };
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    // ASCII, and the CJK ideographs and Hangul syllables (none folds, splits or looks like a letter), as they are.
    if ((c < 128 && c !== 38) || (c >= 0x3400 && c < 0xa000) || (c >= 0xac00 && c < 0xd7a4)) {
      if (r.n === r.codes.length) reserve(r, 1);
      if (c >= 48 && c <= 57) r.digits = true;
      r.codes[r.n] = c;
      r.at[r.n++] = i++;
      continue;
    }
    if (c === 38) {
      const ref = referenceAt(text, i);
      if (ref !== null) {
        const d = ref.decoded;
        for (let k = 0; k < d.length; ) {
          const dc = d.charCodeAt(k);
          const w = widthAt(d, k, dc);
          emit(r, d, k, dc, w, i);
          k += w;
        }
        i = ref.end;
        continue;
      }
    }
    const width = widthAt(text, i, c);
    emit(r, text, i, c, width, i);
    i += width;
  }
  if (r.greekOrCyrillic) latinWords(r);
  // A fold or a reference may have made the digits (`１`, `&#49;`): look for them then too.
  if (r.digits || r.n !== text.length) leetWords(r);
  joinSpelled(r);
  const out = textOf(r.codes, 0, r.n);
  if (out === text) return null;
  r.at[r.n] = text.length;
  return { text: out, at: r.at.subarray(0, r.n + 1) };
}
