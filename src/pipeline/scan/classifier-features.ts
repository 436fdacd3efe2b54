/**
 * The injection classifier's features: hashed character 3- and 5-grams and word
 * unigrams and bigrams of the normalized text (lower case, every run of characters
 * other than letters and digits one space), and sequences of cue classes
 * (classifier-cues.ts) with where they stand. Character n-grams carry it across
 * languages and misspellings ("onstructions"), words carry phrasing, cue sequences
 * carry the shape of an instruction aimed at the assistant whatever its words.
 * Training (scanner/train.ts) and scoring use this one function, so they hash alike.
 */
import { ADDRESS_CLASSES, cueClass } from "./classifier-cues.ts";

export const HASH_BITS = 17;
export const HASH_SIZE = 1 << HASH_BITS;

const SHIFT = 32 - HASH_BITS;
/**
 * Features per window (about 850 characters of English prose): a long document is
 * judged window by window, so an attack buried in it is not diluted by the rest.
 */
export const WINDOW = 2048;
export const STRIDE = WINDOW / 2;

/** Lower case for ASCII, Latin-1, Greek and Cyrillic capitals; 0 (a separator) for what is no letter or digit. */
function fold(c: number): number {
  if (c < 128) {
    if (c >= 97 && c <= 122) return c;
    if (c >= 65 && c <= 90) return c + 32;
    if (c >= 48 && c <= 57) return c;
    return 0;
  }
  if (c >= 0xc0 && c <= 0xde && c !== 0xd7) return c + 32;
  if (c >= 0x410 && c <= 0x42f) return c + 32;
  if (c >= 0x391 && c <= 0x3a9) return c + 32;
  if (c < 0xc0 || (c >= 0x2000 && c <= 0x2bff) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfeff) return 0;
  return c;
}

/** fold() of each ASCII code: most text is ASCII, and one load costs less than fold's compares. */
const ASCII_FOLD = Uint8Array.from({ length: 128 }, (_, c) => fold(c));

/** What an ASCII separator marks: 1 a sentence's end (the next word starts one), 2 a newline, 3 data opening (markup, JSON, a code fence). */
const MARK = Uint8Array.from({ length: 128 }, (_, c) =>
  ".!?;:".includes(String.fromCharCode(c)) ? 1 : c === 10 ? 2 : "<{`[".includes(String.fromCharCode(c)) ? 3 : 0,
);
/** Words between two cues for them to form a sequence. */
export const CUE_GAP = 3;

/**
 * The text's UTF-16 code units (lone surrogates too), copied in one native call: the
 * loop below reads a typed array faster than it calls `charCodeAt` per character.
 * A 0 (a separator) follows the last, so a word's loop needs no test for the text's
 * end. Reused between calls.
 *
 * The copy is Buffer's own `ucs2Write` (Node's and Bun's, not in the type definitions),
 * what `write(text, 0, "utf16le")` ends in: after a pause the public `write` read its
 * arguments and its encoding's name through code the core had to fetch again, about
 * 3 µs of a cold 1 KB text.
 */
let units = new Uint16Array(1024);
let unitBytes = Buffer.from(units.buffer) as Buffer & { ucs2Write(text: string, offset: number): number };

function codeUnits(text: string): Uint16Array {
  if (units.length <= text.length) {
    units = new Uint16Array(text.length * 2 + 1);
    unitBytes = Buffer.from(units.buffer) as typeof unitBytes;
  }
  unitBytes.ucs2Write(text, 0);
  units[text.length] = 0;
  return units;
}

/**
 * The character 3- and 5-gram ending with `c`, as two hashes at `buf[n]`. Polynomial
 * codes spread by one multiply each; only their low 32 bits are hashed, so they are
 * computed in 32 bits (Math.imul, `| 0`): the same bits as exact arithmetic, without
 * the JIT's overflow checks.
 */
function ngrams(buf: Uint32Array, n: number, c4: number, c3: number, c2: number, c1: number, c: number): void {
  const tri = (Math.imul(c2, 961) + Math.imul(c1, 31) + c) | 0;
  const five = (Math.imul(c4, 923521) + Math.imul(c3, 29791) + tri) | 0;
  buf[n] = Math.imul(tri ^ 0x27d4eb2f, 0x9e3779b1) >>> SHIFT;
  buf[n + 1] = Math.imul(five ^ 0x165667b1, 0x85ebca77) >>> SHIFT;
}

/**
 * Writes the feature hashes of `text` into `out` (or a larger array when it is too
 * short; returned with the filled length), in text order, so that a window of the array is a
 * window of the text. Hashed over character codes as they are read: no substring,
 * no normalized copy of the text. Read as runs of separators and words, each in a
 * loop of its own: a word's characters only add n-grams and its hash (most of a
 * text), and a run of separators counts as one space.
 */
export function featureHashes(text: string, out: Uint32Array): { hashes: Uint32Array; length: number } {
  const length = text.length;
  const codes = codeUnits(text);
  // At most three features a character (two for each, two more where a word ends) and
  // six cue features a cue word, which is two characters or longer.
  const buf = out.length >= 5 * length + 8 ? out : new Uint32Array(5 * length + 8);
  let n = 0;
  // The last four characters, 32 (space) as the boundary; a text starts after a space.
  let c1 = 32;
  let c2 = 32;
  let c3 = 32;
  let c4 = 32;
  let prevWord = 0;
  // Cue state: the last two cue classes (0 none), words since the last, whether the next
  // word starts a sentence, newlines since the last word, and whether a data part (a
  // pasted document, markup, JSON, code) has opened: 1 once a blank line or `<{`[` is met.
  let cue1 = 0;
  let cue2 = 0;
  let gap = 0;
  let sentenceStart = 1;
  let newlines = 0;
  let data = 0;
  // The sentence so far: its first cue class (0 none) and whether it addresses the model
  // ("you", "assistant", "system"): who an order is aimed at, at any distance in the sentence.
  let sentFirst = 0;
  let addressed = 0;
  let i = 0;
  for (;;) {
    // Separators, each ASCII one with its mark: a sentence's end, a newline, data opening.
    let c = 0;
    for (; i < length; i++) {
      const code = codes[i] as number;
      c = code < 128 ? (ASCII_FOLD[code] as number) : fold(code);
      if (c !== 0) break;
      const mark = code < 128 ? (MARK[code] as number) : 0;
      if (mark !== 0) {
        if (mark < 3) {
          sentFirst = 0;
          addressed = 0;
          sentenceStart = 1;
        }
        if (mark === 3 || (mark === 2 && ++newlines >= 2)) data = 1;
      }
    }
    if (i >= length) break;
    // A word, to the separator after it (the 0 after the text is one).
    let word = 0;
    do {
      ngrams(buf, n, c4, c3, c2, c1, c);
      n += 2;
      word = Math.imul(word ^ c, 0x01000193);
      c4 = c3;
      c3 = c2;
      c2 = c1;
      c1 = c;
      const code = codes[++i] as number;
      c = code < 128 ? (ASCII_FOLD[code] as number) : fold(code);
    } while (c !== 0);
    // Its end, read as a space; the separator's mark is read by the loop above.
    ngrams(buf, n, c4, c3, c2, c1, 32);
    n += 2;
    const unigram = Math.imul(word ^ 0x5bd1e995, 0xcc9e2d51);
    buf[n] = unigram >>> SHIFT;
    buf[n + 1] = Math.imul(Math.imul(prevWord, 0x1b873593) ^ unigram, 0xe6546b64) >>> SHIFT;
    n += 2;
    const cue = cueClass(word);
    if (cue !== 0) {
      // The class where it stands (a sentence's first word, inside data or not), the
      // class after the one before, and after the two before: a sequence's shape.
      buf[n++] = Math.imul((cue | (sentenceStart << 5) | (data << 6)) ^ 0x3c6ef372, 0x2545f491) >>> SHIFT;
      if (cue1 !== 0) {
        const pair = (cue1 << 5) | cue;
        buf[n++] = Math.imul(pair ^ 0x6a09e667, 0x9e3779b9) >>> SHIFT;
        buf[n++] = Math.imul((pair | (data << 10)) ^ 0x510e527f, 0x68e31da4) >>> SHIFT;
        if (cue2 !== 0) buf[n++] = Math.imul(((cue2 << 10) | pair) ^ 0x1f83d9ab, 0x5be0cd19) >>> SHIFT;
      }
      // The sentence's first cue with this one, and this one in a sentence aimed at the model.
      if (sentFirst !== 0) buf[n++] = Math.imul(((sentFirst << 5) | cue | (data << 10)) ^ 0x2b992ddf, 0x7feb352d) >>> SHIFT;
      else sentFirst = cue;
      buf[n++] = Math.imul((cue | (addressed << 5) | (data << 6)) ^ 0x4cf5ad43, 0x846ca68b) >>> SHIFT;
      addressed |= (ADDRESS_CLASSES >>> cue) & 1;
      cue2 = cue1;
      cue1 = cue;
      gap = 0;
    } else if (++gap > CUE_GAP) {
      cue1 = 0;
      cue2 = 0;
    }
    sentenceStart = 0;
    newlines = 0;
    prevWord = word;
    c4 = c3;
    c3 = c2;
    c2 = c1;
    c1 = 32;
  }
  return { hashes: buf, length: n };
}

/** Per bucket, the last window that saw it (see `distinctFeatures`); 0 is never a window. */
const seenIn = new Uint32Array(HASH_SIZE);
let windowStamp = 0;

/**
 * Writes the distinct hashes of `hashes[start, end)` into `out` (at least `end - start`
 * long) and returns how many. A window's features are presences, each counted once:
 * with counts, a text that repeats the same mildly suspicious words ("tell me a
 * story" fifty times, a log line a thousand times) scored higher the more it
 * repeated, and long benign documents were flagged. Training and scoring both call
 * this, so they see the same features. Linear in the window, no allocation: a bucket
 * is marked with the window's stamp instead of clearing a set per window.
 */
export function distinctFeatures(hashes: Uint32Array, start: number, end: number, out: Uint32Array): number {
  if (windowStamp === 0xffffffff) {
    seenIn.fill(0);
    windowStamp = 0;
  }
  const stamp = ++windowStamp;
  let n = 0;
  for (let k = start; k < end; k++) {
    const h = hashes[k] as number;
    if (seenIn[h] === stamp) continue;
    seenIn[h] = stamp;
    out[n++] = h;
  }
  return n;
}

/** The windows of `length` features: [start, end) pairs, half-overlapping; one window when short. */
export function windows(length: number): [number, number][] {
  if (length <= WINDOW) return [[0, length]];
  const out: [number, number][] = [];
  for (let s = 0; ; s += STRIDE) {
    const e = Math.min(length, s + WINDOW);
    out.push([s, e]);
    if (e === length) break;
  }
  return out;
}
