/**
 * The finer gate of the normalized reading for the two rewritings everyday text also holds:
 * letters that compatibility folding makes ASCII (full-width `ＡＰＩ`, everyday in Japanese) and
 * precomposed accented Latin letters (every European language). The trigger walk hands such a
 * word here; only what the scanner could act on once it is undone opens the second reading.
 */
import { cueClass, wordHash } from "./classifier-cues.ts";
import { K_COMPAT, K_FOLDS, K_FORMAT, K_MARK, K_SPACE, K_ZERO_WIDTH, kindAt, leetCue, mayFold } from "./rewritten-chars.ts";
import { isAsciiLetter } from "./trigger-chars.ts";
import type { Found } from "./trigger-found.ts";

/** A telling bit (rewritten-chars.ts has the others): two distinct words with accented letters that, without their accents, are words the scanner acts on. */
export const ACCENTS = 256;

/** Compatibility folds to ASCII printable characters met so far, by code point ("" for a fold to anything else). */
const ASCII_FOLDS = new Map<number, string>();
function asciiFold(text: string, i: number, width: number): string {
  const cp = text.codePointAt(i) as number;
  let f = ASCII_FOLDS.get(cp);
  if (f === undefined) {
    const n = text.slice(i, i + width).normalize("NFKC");
    ASCII_FOLDS.set(cp, (f = /^[!-~]+$/.test(n) ? n : ""));
  }
  return f;
}

const isPrintable = (c: number) => c > 32 && c < 127;
const widthAt = (text: string, i: number, c: number) => (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length ? 2 : 1);

/**
 * What the character at `k` (code `c`, outside ASCII) is in a folded phrase: PART_LETTER (it
 * folds to an ASCII letter, or a template's punctuation), PART_FOLDS (to other ASCII: digits,
 * `＿`, `－`), PART_DROPPED (an invisible character or a combining mark), or 0 (it ends the word).
 */
const PART_LETTER = 1;
const PART_FOLDS = 2;
const PART_DROPPED = 3;
function partAt(text: string, k: number, c: number): number {
  if (c >= 0xd800 && c < 0xdc00) return learnPart(text, k, c);
  let part = PARTS[c] as number;
  if (part === UNKNOWN_PART) PARTS[c] = part = learnPart(text, k, c);
  return part;
}
const UNKNOWN_PART = 0xff;
/** partAt's answers for the BMP, learned on first sight (astral characters: kindAt's and asciiFold's maps). */
const PARTS = new Uint8Array(0x10000).fill(UNKNOWN_PART);
function learnPart(text: string, k: number, c: number): number {
  const kind = kindAt(text, k, c);
  if (kind === K_COMPAT || kind === K_FOLDS) {
    if (asciiFold(text, k, widthAt(text, k, c)) === "") return 0;
    return kind === K_COMPAT ? PART_LETTER : PART_FOLDS;
  }
  return kind === K_FORMAT || kind === K_ZERO_WIDTH || kind === K_MARK ? PART_DROPPED : 0;
}

/** Set by wordEnd: whether the word it read holds a character that folds to an ASCII letter, and a hash of its characters (with the hash it was given). */
let compatSeen = false;
let wordHashed = 0;

/** The end of the word of a folded phrase at `k`: ASCII printable characters and what partAt reads as part of one. */
function wordEnd(text: string, k: number, h: number): number {
  compatSeen = false;
  while (k < text.length) {
    let c = text.charCodeAt(k);
    if (c < 128) {
      if (!isPrintable(c)) break;
    } else {
      if (isPlainCjk(c)) break;
      const part = partAt(text, k, c);
      if (part === 0) break;
      if (part === PART_LETTER) compatSeen = true;
      // A surrogate pair's first half: its second is read with it.
      if (widthAt(text, k, c) === 2) {
        h = Math.imul(h ^ c, 0x01000193);
        c = text.charCodeAt(++k);
      }
    }
    h = Math.imul(h ^ c, 0x01000193);
    k++;
  }
  wordHashed = h;
  return k;
}

/** text[start, end), a phrase wordEnd read, folded: each character as ASCII, its spaces as U+0020, its invisible characters and marks dropped. */
function foldRange(text: string, start: number, end: number): string {
  let out = "";
  for (let k = start; k < end; ) {
    const c = text.charCodeAt(k);
    const width = widthAt(text, k, c);
    // Full-width ASCII (U+FF01-FF5E) is ASCII 0xFEE0 higher: most of what Japanese folds.
    if (c < 128) out += text[k];
    else if (c >= 0xff01 && c <= 0xff5e) out += String.fromCharCode(c - 0xfee0);
    else if (kindAt(text, k, c) === K_SPACE) out += " ";
    else if (partAt(text, k, c) !== PART_DROPPED) out += asciiFold(text, k, width);
    k += width;
  }
  return out;
}

const isSpace = (text: string, k: number) => {
  const c = text.charCodeAt(k);
  return c === 32 || (c >= 128 && !isPlainCjk(c) && kindAt(text, k, c) === K_SPACE);
};

/**
 * Kana (less the combining sound marks), CJK ideographs and Hangul syllables: no space, mark,
 * invisible character or fold among them. Such a character ends most of Japanese's phrases, and
 * is told by its code, without the tables (after a pause, each table line read is a miss).
 */
const isPlainCjk = (c: number) =>
  (c >= 0x4e00 && c < 0xa000) || (c >= 0x3041 && c < 0x3097) || (c >= 0x30a0 && c < 0x3100) || (c >= 0xac00 && c < 0xd7a4);

/**
 * The blocks of 256 characters that hold a letter the gate reads (`mayFold`'s, rewritten-chars.ts,
 * and Latin-1's accented letters): the walk reads Cyrillic, Greek or CJK text's characters with one
 * look-up each.
 */
const LETTER_BLOCKS = new Uint8Array(256);
for (let b = 0; b < 256; b++) LETTER_BLOCKS[b] = b === 0 || mayFold(b << 8) ? 1 : 0;

/** Whether `c` (outside ASCII) is in a block LETTER_BLOCKS holds: the walk's test, in its loop, before it calls rewrittenLetter. */
export const mayRewrite = (c: number) => LETTER_BLOCKS[c >>> 8] === 1;

/** The walk at a character outside ASCII (`i`, code `c`, mayRewrite): a letter that folds to ASCII begins a folded phrase, an accented one an accented word. */
export function rewrittenLetter(f: Found, i: number, c: number): void {
  if (i >= f.foldedUpTo && mayFold(c) && kindAt(f.text, i, c) === K_COMPAT) foldedPhrase(f, i);
  if (i >= f.accentUpTo && mayBeAccented(c)) accentedWord(f, i);
}

/**
 * A character at `i` that folds to an ASCII letter: the phrase it stands in (the ASCII printable
 * characters right before it, its word, and each next word, after one space, that holds such a
 * letter too), folded, added to the walk's `foldedWords` (one line each, once per raw phrase).
 * `ＡＰＩ` is read as `API`, `ｉｇｎｏｒｅ　ａｌｌ` as `ignore all`; whether the phrases open the reading
 * is judged once the walk is done (foldedPhrasesAct).
 */
function foldedPhrase(f: Found, i: number): void {
  const { text } = f;
  let start = i;
  let h = 0;
  while (start > f.foldedUpTo && isPrintable(text.charCodeAt(start - 1))) start--;
  for (let k = start; k < i; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  let end = wordEnd(text, i, h);
  // A letter that folds to more than ASCII (`Ǆ`) ends its word at once, and tells nothing.
  if (end === i) return;
  h = wordHashed;
  while (end + 1 < text.length && isSpace(text, end)) {
    const to = wordEnd(text, end + 1, Math.imul(h ^ text.charCodeAt(end), 0x01000193));
    if (!compatSeen) break;
    end = to;
    h = wordHashed;
  }
  f.foldedUpTo = end;
  // Japanese repeats its acronyms: each phrase is folded and judged once (by a hash of its characters, then compared).
  if (seenPhrase(f, h, start, end - start)) return;
  f.foldedWords += `${foldRange(text, start, end)}\n`;
}

/** Phrases kept in a list before a map is made: a text of a few acronyms is searched faster so. */
const LISTED = 16;

/**
 * Whether text[start, start + length) (its hash `h`) was a phrase before; if not, it is recorded
 * (the first phrase of each hash, as its start times 0x10000 plus its length).
 */
function seenPhrase(f: Found, h: number, start: number, length: number): boolean {
  const at = start * 0x10000 + Math.min(length, 0xffff);
  const list = (f.phraseList ??= []);
  if (f.phrases === undefined) {
    for (let k = 0; k < list.length; k += 2) if (list[k] === h) return sameRange(f.text, list[k + 1] as number, start, length);
    list.push(h, at);
    if (list.length >= 2 * LISTED) {
      f.phrases = new Map();
      for (let k = 0; k < list.length; k += 2) f.phrases.set(list[k] as number, list[k + 1] as number);
    }
    return false;
  }
  const first = f.phrases.get(h);
  if (first !== undefined) return sameRange(f.text, first, start, length);
  f.phrases.set(h, at);
  return false;
}

/** Whether the phrase recorded as `first` (its start times 0x10000 plus its length) is text[start, start + length). */
function sameRange(text: string, first: number, start: number, length: number): boolean {
  const from = Math.floor(first / 0x10000);
  if (first % 0x10000 !== length) return false;
  for (let k = 0; k < length; k++) if (text.charCodeAt(from + k) !== text.charCodeAt(start + k)) return false;
  return true;
}

/**
 * How many distinct words of the folded phrases are cue words of the classifier (classifier-cues.ts),
 * of three letters or more (`AI` is everyday) or, with digits, read as one in leetspeak.
 */
export function foldedCues(phrases: string): number {
  const seen: number[] = [];
  const n = phrases.length;
  for (let i = 0; i < n; ) {
    let j = i;
    let h = 0;
    let digits = false;
    for (; j < n; j++) {
      const c = phrases.charCodeAt(j);
      if (isAsciiLetter(c)) h = Math.imul(h ^ (c | 0x20), 0x01000193);
      else if (c >= 48 && c <= 57) digits = true;
      else break;
    }
    if (j - i >= 3 && (digits ? leetCue(phrases, i, j) : cueClass(h) !== 0)) {
      // A leet word's hash is its letters', enough to tell two words apart.
      if (!seen.includes(h)) seen.push(h);
    }
    i = j + 1;
  }
  return seen.length;
}

/** The ASCII letter an accented Latin letter is written on (`é` -> `e`, `Ö` -> `O`), by code (0: none, as for `ß`, `ø`, `ł`); learned on first sight. */
const BASE = new Uint8Array(0x250);
const BASE_EXT = new Uint8Array(0x100);
const UNKNOWN = 0xff;
BASE.fill(UNKNOWN, 0xc0);
BASE_EXT.fill(UNKNOWN);
function learnBase(c: number): number {
  const d = String.fromCharCode(c).normalize("NFD");
  return /^[A-Za-z]\p{Mn}+$/u.test(d) ? d.charCodeAt(0) : 0;
}
/** Whether `c` may be a precomposed accented Latin letter: Latin-1's letters, Latin Extended-A and -B, Latin Extended Additional (Vietnamese). */
export const mayBeAccented = (c: number) => (c >= 0xc0 && c < 0x250 && c !== 0xd7 && c !== 0xf7) || (c >= 0x1e00 && c < 0x1f00);
/** The ASCII letter under the accented letter `c` (0: none). */
export function accentBase(c: number): number {
  if (c >= 0xc0 && c < 0x250) {
    let b = BASE[c] as number;
    if (b === UNKNOWN) BASE[c] = b = learnBase(c);
    return b;
  }
  if (c >= 0x1e00 && c < 0x1f00) {
    let b = BASE_EXT[c - 0x1e00] as number;
    if (b === UNKNOWN) BASE_EXT[c - 0x1e00] = b = learnBase(c);
    return b;
  }
  return 0;
}

/**
 * A precomposed accented letter at `i`: its word (ASCII and accented Latin letters) read without
 * its accents. It counts when that is a cue word of the classifier of four letters or more and the
 * word as written is none; two distinct such words set ACCENTS. A Spanish `ignoré` or a Polish
 * `instrukcję` is one; an attack rewrites a sentence (`ìgnörè àll prévïöüs ïnstrüctïöns`). The
 * cue words hold the words of an override (classifier-cues.ts); the rules' literals were checked
 * too in a draft, and cost a French text 6 µs a KB, since nearly every word's first letters open
 * some literal.
 */
function accentedWord(f: Found, i: number): void {
  const { text } = f;
  let start = i;
  while (start > f.accentUpTo && isAsciiLetter(text.charCodeAt(start - 1))) start--;
  let end = start;
  let h = 0;
  let plain = true;
  let accents = 0;
  for (; end < text.length; end++) {
    let c = text.charCodeAt(end);
    if (!isAsciiLetter(c)) {
      if (!mayBeAccented(c)) break;
      const b = accentBase(c);
      accents++;
      if (b === 0) plain = false;
      c = b;
    }
    h = Math.imul(h ^ (c | 0x20), 0x01000193);
  }
  f.accentUpTo = end;
  if (!plain || accents === 0 || end - start < 4 || (f.telling & ACCENTS) !== 0) return;
  // Without its accents a cue word, and as written none (`précédentes` is one as written, and read already).
  if (cueClass(h) === 0 || cueClass(wordHash(text.slice(start, end).toLowerCase())) !== 0) return;
  if (f.accentWord === 0) f.accentWord = h;
  else if (f.accentWord !== h) f.telling |= ACCENTS;
}
