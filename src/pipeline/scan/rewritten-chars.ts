/**
 * What tells that a text may be rewritten to hide what it says from a scanner while a model
 * still reads it, as the trigger walk (triggers.ts) meets its characters: the `telling` bits
 * that decide whether the text is read once more normalized (normalized-text.ts). Each is
 * found where the walk already stops (a character outside ASCII, an `&`, a one-letter word, a
 * word with a digit), so ASCII prose pays nothing for them but a word's length test. Letters
 * that fold to ASCII (`ＡＰＩ`) and precomposed accented letters, which everyday text holds too,
 * are judged by the words they make (rewritten-words.ts).
 */
import { cueClass } from "./classifier-cues.ts";
import { LOOKALIKE_LETTERS } from "./confusables.ts";
import { ASTRAL_FORMAT, FORMAT_CHARS, ZERO_WIDTH_CHARS } from "./detector.ts";
import { referenceAt } from "./html-references.ts";
import { charAt } from "./trigger-chars.ts";

/** A Greek or Cyrillic letter that looks like a Latin one, beside an ASCII letter: a word of two scripts. */
export const LOOKALIKE = 2;
/** A combining mark on an ASCII letter. */
export const MARKS = 4;
/** A space other than U+0020 (no-break, em, ideographic, ...) between two ASCII letters. */
export const SPACES = 8;
/** An HTML character reference (`&#105;`, `&#x69;`, `&lt;`). */
export const REFERENCES = 16;
/** Five or more one-letter words, each after the same separator (`i g n o r e`, `i.g.n.o.r.e`). */
export const SPACED = 32;
/** A word of letters and digits that reads as one of the classifier's cue words with its digits as letters (`1gn0r3`). */
export const LEET = 64;
/** Not a telling bit: an invisible format character inside a word, which the zero-width reading removes (the walk's `zeroWidth`). */
export const SPLIT = 128;

/** A character's kind, learned on first sight (KNOWN set) from the runtime's Unicode data. */
const KNOWN = 0x80;
export const K_COMPAT = 1;
export const K_MARK = 2;
const K_LOOK = 3;
export const K_SPACE = 4;
/** An invisible format character other than the zero-width ones (detector.ts, FORMAT_CHARS), which the walk meets first. */
export const K_FORMAT = 5;
/** A zero-width character (detector.ts, ZERO_WIDTH_CHARS). */
export const K_ZERO_WIDTH = 6;
/** A character compatibility folding changes into something else than K_COMPAT's (digits, `…`): folded when a text is normalized, telling nothing. */
export const K_FOLDS = 7;
const KIND = new Uint8Array(0x10000);
const ASTRAL = new Map<number, number>();
const FORMAT = new RegExp(`^(?:[${FORMAT_CHARS}]|${ASTRAL_FORMAT})$`);
const ZERO_WIDTH_CHAR = new RegExp(`^[${ZERO_WIDTH_CHARS}]$`);
const LOOKS = new Set([...LOOKALIKE_LETTERS].map((c) => c.charCodeAt(0)));

/**
 * Whether compatibility folding turns `ch` into an ASCII letter or a chat template's punctuation
 * (`<`, `|`, `>`, `[`, `]`, `#`). Not Latin-1's `ª`, `º`, `²` (everyday Spanish and French), nor what
 * folds to digits alone (`①`, full-width `２０２４`, everyday Japanese) or other punctuation (`…`).
 */
export const foldsToAscii = (ch: string, cp: number) => cp >= 0x100 && /[A-Za-z<>|[\]#]/.test(folded(ch));
const folded = (ch: string) => {
  const f = ch.normalize("NFKC");
  return f === ch ? "" : f;
};

function learn(ch: string, cp: number): number {
  if (FORMAT.test(ch)) return K_FORMAT;
  if (ZERO_WIDTH_CHAR.test(ch)) return K_ZERO_WIDTH;
  if (cp !== 0x20 && /^\p{Zs}$/u.test(ch)) return K_SPACE;
  if (/^\p{Mn}$/u.test(ch)) return K_MARK;
  if (LOOKS.has(cp)) return K_LOOK;
  return foldsToAscii(ch, cp) ? K_COMPAT : cp >= 0x100 && folded(ch) !== "" ? K_FOLDS : 0;
}

/** The kind of the character at `i` (code `c`, not ASCII): a table read, or for a surrogate pair a map's. */
export function kindAt(text: string, i: number, c: number): number {
  if (c >= 0xd800 && c < 0xdc00) {
    // Emoji (U+1F300 on) are none of these kinds: most astral characters of everyday text are ruled out here.
    if (c >= 0xd83d || (c === 0xd83c && charAt(text, i + 1) >= 0xdf00)) return 0;
    const cp = text.codePointAt(i) as number;
    let k = ASTRAL.get(cp);
    if (k === undefined) ASTRAL.set(cp, (k = learn(String.fromCodePoint(cp), cp)));
    return k;
  }
  const known = KIND[c] as number;
  if (known !== 0) return known & ~KNOWN;
  const k = learn(String.fromCharCode(c), c);
  KIND[c] = k | KNOWN;
  return k;
}

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isAsciiAlnum = (c: number) => isAsciiLetter(c) || (c >= 48 && c <= 57);

/**
 * Whether a character outside ASCII may fold to an ASCII letter (foldsToAscii): the blocks that
 * hold such characters (Latin Extended, phonetic modifiers, letterlike symbols, enclosed letters,
 * squared abbreviations, ligatures, full-width forms, and astral ones: mathematical letters), a
 * test checks every one. Greek, Cyrillic, Hebrew, Arabic, Indic scripts, kana and CJK hold none,
 * and most of a text in them is ruled out here, without a table.
 */
export const mayFold = (c: number) => FOLD_BLOCKS[c >>> 8] === 1;
/** The blocks of 256 characters mayFold reads (high surrogates D8-DB: astral characters). */
const FOLD_BLOCKS = new Uint8Array(256);
for (const b of [0x01, 0x02, 0x1d, 0x1e, 0x20, 0x21, 0x24, 0x2c, 0x32, 0x33, 0xa7, 0xd8, 0xd9, 0xda, 0xdb, 0xfb, 0xfe, 0xff])
  FOLD_BLOCKS[b] = 1;

/**
 * What the character right after a word of ASCII letters and digits (`i`, code `c`, outside
 * ASCII) tells: a look-alike or a combining mark after its last letter, another space before a
 * letter, an invisible format character before a letter or digit (SPLIT). A rewriting's characters
 * stand beside Latin letters, so the walk reads them only there.
 */
export function afterWord(text: string, i: number, c: number): number {
  const last = text.charCodeAt(i - 1);
  switch (kindAt(text, i, c)) {
    case K_LOOK:
      return isAsciiLetter(last) ? LOOKALIKE : 0;
    case K_MARK:
      return isAsciiLetter(last) ? MARKS : 0;
    case K_SPACE:
      return isAsciiLetter(last) && isAsciiLetter(charAt(text, i + 1)) ? SPACES : 0;
    case K_FORMAT:
      return isAsciiAlnum(last) && isAsciiAlnum(charAt(text, i + (c >= 0xd800 && c < 0xdc00 ? 2 : 1))) ? SPLIT : 0;
    default:
      return 0;
  }
}

/** LOOKALIKE when the character before a word (at `i`, its first letter an ASCII one) is a look-alike. */
export const lookBefore = (text: string, i: number) => {
  const c = text.charCodeAt(i - 1);
  return c >= 0x370 && c < 0x530 && isAsciiLetter(text.charCodeAt(i)) && kindAt(text, i - 1, c) === K_LOOK ? LOOKALIKE : 0;
};

/** The letter a digit stands for in leetspeak (0 none), with `1` as `i`; LEET_L has it as `l`. */
export const LEET_LETTER = new Uint8Array(58);
for (const [d, l] of ["0o", "1i", "3e", "4a", "5s", "7t", "8b", "9g"])
  LEET_LETTER[(d as string).charCodeAt(0)] = (l as string).charCodeAt(0);
const LEET_L = "l".charCodeAt(0);

/**
 * Whether text[i, j) (ASCII letters, digits and `_`) holds a letter and a leet digit and reads, its
 * digits as letters, as a cue word of the classifier (classifier-cues.ts: override verbs, "previous",
 * "instructions", "system", ...). Code is full of words with digits (`utf8`, `sha256`, `x86`): only
 * those that become such a word count.
 */
export function leetCue(text: string, i: number, j: number, oneAs = 0): boolean {
  if (j - i > 24) return false;
  let letters = 0;
  let digits = 0;
  let h = 0;
  for (let k = i; k < j; k++) {
    let c = text.charCodeAt(k);
    if (c >= 48 && c <= 57) {
      c = c === 49 && oneAs !== 0 ? oneAs : (LEET_LETTER[c] as number);
      if (c === 0) return false;
      digits++;
    } else if (isAsciiLetter(c)) {
      c |= 0x20;
      letters++;
    } else return false;
    // The classifier's word hash (classifier-cues.ts, wordHash) of the word as letters, lower case.
    h = Math.imul(h ^ c, 0x01000193);
  }
  if (letters === 0 || digits === 0) return false;
  if (cueClass(h) !== 0) return true;
  return oneAs === 0 && text.slice(i, j).includes("1") && leetCue(text, i, j, LEET_L);
}

/**
 * Whether the `&` at `i` opens an HTML character reference to a letter, a digit or a chat template's
 * punctuation (`&#105;`, `&lt;`, `&vert;`), or to a character that folds to one (`&#65313;`). An
 * escaped page's `&amp;`, `&quot;`, `&#39;` and `&nbsp;` hide no word, and open no second reading.
 */
export const referenceStarts = (text: string, i: number) => referenceAt(text, i)?.hides === true;
