/**
 * The finer gate of the normalized reading for the two rewritings everyday text also holds:
 * letters that compatibility folding makes ASCII (full-width `ＡＰＩ`, everyday in Japanese) and
 * precomposed accented Latin letters (every European language). The trigger walk hands such a
 * word here; only what the scanner could act on once it is undone opens the second reading.
 */
import { cueClass, wordHash } from "./classifier-cues.ts";
import { K_COMPAT, K_FOLDS, K_FORMAT, K_MARK, K_SPACE, K_ZERO_WIDTH, kindAt, leetCue } from "./rewritten-chars.ts";
import { hasBit, key3, key4, seenSlot } from "./trigger-chars.ts";
import type { Found } from "./trigger-found.ts";
import { wordStart } from "./trigger-word-starts.ts";

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
 * What the character at `k` (code `c`) adds to a folded phrase: itself (ASCII), its fold (a
 * character NFKC makes ASCII), "" (an invisible character or a combining mark, dropped), or null
 * (it ends the word). `compat` is set when it is one that folds to an ASCII letter.
 */
function phrasePart(text: string, k: number, c: number, width: number, seen: { compat: boolean }): string | null {
  if (c < 128) return isPrintable(c) ? String.fromCharCode(c) : null;
  const kind = kindAt(text, k, c);
  if (kind === K_COMPAT) {
    seen.compat = true;
    return asciiFold(text, k, width) || null;
  }
  if (kind === K_FOLDS) return asciiFold(text, k, width) || null;
  return kind === K_FORMAT || kind === K_ZERO_WIDTH || kind === K_MARK ? "" : null;
}

/** The end of the word at `k` read as phrasePart reads it, and its folded characters (`out.text`); `out.compat` when it holds a folded letter. */
function foldedWord(text: string, k: number, out: { text: string; compat: boolean }): number {
  while (k < text.length) {
    const c = text.charCodeAt(k);
    const width = widthAt(text, k, c);
    const part = phrasePart(text, k, c, width, out);
    if (part === null) break;
    out.text += part;
    k += width;
  }
  return k;
}

const isSpace = (text: string, k: number) => {
  const c = text.charCodeAt(k);
  return c === 32 || (c >= 128 && kindAt(text, k, c) === K_SPACE);
};

/**
 * A character at `i` that folds to an ASCII letter: the phrase it stands in (the ASCII printable
 * characters right before it, its word, and each next word, after one space, that holds such a
 * letter too), folded, added to the walk's `foldedWords` (one line each). `ＡＰＩ` is read as `API`,
 * `ｉｇｎｏｒｅ　ａｌｌ` as `ignore all`; whether the phrases open the reading is judged once the walk
 * is done (foldedPhrasesAct).
 */
export function foldedPhrase(f: Found, i: number): void {
  const { text } = f;
  let start = i;
  while (start > f.foldedUpTo && isPrintable(text.charCodeAt(start - 1))) start--;
  const word = { text: text.slice(start, i), compat: false };
  let end = foldedWord(text, i, word);
  // A letter that folds to more than ASCII (`Ǆ`) ends its word at once, and tells nothing.
  if (end === i) return;
  let phrase = word.text;
  while (end + 1 < text.length && isSpace(text, end)) {
    const next = { text: "", compat: false };
    const to = foldedWord(text, end + 1, next);
    if (!next.compat) break;
    phrase += ` ${next.text}`;
    end = to;
  }
  f.foldedUpTo = end;
  f.foldedWords += `${phrase}\n`;
}

/**
 * How many distinct words of the folded phrases are cue words of the classifier (classifier-cues.ts),
 * of three letters or more (`AI` is everyday) or, with digits, read as one in leetspeak.
 */
export function foldedCues(phrases: string): number {
  const seen: number[] = [];
  for (const m of phrases.matchAll(/[A-Za-z0-9]{3,}/g)) {
    const w = m[0];
    const letters = /^[A-Za-z]+$/.test(w);
    if (letters ? cueClass(wordHash(w.toLowerCase())) === 0 : !leetCue(w, 0, w.length)) continue;
    const h = wordHash(w.toLowerCase());
    if (!seen.includes(h)) seen.push(h);
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

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/** Whether a literal of the rules stands at the start of `word` (as the walk's wordStart finds it), before `end`. */
function literalAtStart(f: Found, word: string): boolean {
  const probe: Found = {
    ...f,
    text: word,
    out: [[], [], []],
    feeds: [[], [], []],
    gates: [],
  };
  wordStart(probe, 0, word.charCodeAt(0));
  return probe.out[0].length + probe.out[1].length + probe.out[2].length + probe.gates.length > 0;
}

/**
 * A precomposed accented letter at `i`: its word (ASCII and accented Latin letters) read without
 * its accents. It counts when that is a cue word of the classifier of four letters or more, or
 * begins with a rule's trigger literal, and the word as written is neither (`précédentes` is a
 * cue as written, and read already); two distinct such words set ACCENTS. A Spanish `ignoré` or a
 * French `rôle` is one; an attack rewrites a sentence (`ìgnörè àll prévïöüs ïnstrüctïöns`).
 */
export function accentedWord(f: Found, i: number): void {
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
  if (!actsStripped(f, text, start, end, h)) return;
  if (f.accentWord === 0) f.accentWord = h;
  else if (f.accentWord !== h) f.telling |= ACCENTS;
}

/** Whether text[start, end) without its accents (its hash `h`, lower case) is a cue word or opens a literal the word as written does not. */
function actsStripped(f: Found, text: string, start: number, end: number, h: number): boolean {
  const raw = text.slice(start, end);
  if (cueClass(h) !== 0) return cueClass(wordHash(raw.toLowerCase())) === 0;
  let stripped = "";
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    stripped += String.fromCharCode(c < 128 ? c : accentBase(c));
  }
  const k3 = key3(stripped.charCodeAt(0), stripped.charCodeAt(1), stripped.charCodeAt(2));
  const seen = f.plan.keySeen;
  if (!hasBit(seen, seenSlot(k3)) && !hasBit(seen, seenSlot(key4(k3, stripped.charCodeAt(3))))) return false;
  return literalAtStart(f, stripped) && !literalAtStart(f, raw);
}
