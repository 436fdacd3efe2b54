/**
 * The telling bits (rewritten-chars.ts, rewritten-words.ts) and the folded phrases worked out
 * plainly, character by character from the runtime's Unicode properties and word by word from
 * regular expressions: what the trigger walk's must equal
 * (rewritten-chars.test.ts), and the exhaustive scan's (exhaustive-scan.ts).
 */
import { cueClass, wordHash } from "../../../src/pipeline/scan/classifier-cues.ts";
import { LOOKALIKE_LETTERS } from "../../../src/pipeline/scan/confusables.ts";
import { referenceAt } from "../../../src/pipeline/scan/html-references.ts";
import { foldsToAscii, LEET, LOOKALIKE, leetCue, MARKS, REFERENCES, SPACED, SPACES } from "../../../src/pipeline/scan/rewritten-chars.ts";
import { ACCENTS } from "../../../src/pipeline/scan/rewritten-words.ts";

const FORMAT_OR_HIDDEN =
  /^(?:[\u200B-\u200D\u2060\uFEFF\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200E\u200F\u2061-\u2065\u206A-\u206F\u3164\uFFA0\uFFF0-\uFFF8\u202A-\u202E\u2066-\u2069]|[\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E03FF}])$/u;
const letter = (ch: string | undefined) => ch !== undefined && /^[A-Za-z]$/.test(ch);

export function tellingOf(text: string): number {
  let t = 0;
  const chars = [...text];
  let at = 0;
  chars.forEach((ch) => {
    const cp = ch.codePointAt(0) as number;
    const before = text[at - 1];
    const after = text[at + ch.length];
    at += ch.length;
    if (cp < 128 || FORMAT_OR_HIDDEN.test(ch)) return;
    if (cp !== 0x20 && /^\p{Zs}$/u.test(ch)) {
      if (letter(before) && letter(after)) t |= SPACES;
    } else if (/^\p{Mn}$/u.test(ch)) {
      if (letter(before)) t |= MARKS;
    } else if (LOOKALIKE_LETTERS.includes(ch)) {
      if (letter(before) || letter(after)) t |= LOOKALIKE;
    }
  });
  for (let i = text.indexOf("&"); i >= 0; i = text.indexOf("&", i + 1)) {
    const decoded = referenceAt(text, i)?.decoded.normalize("NFKC") ?? "";
    if (/[A-Za-z0-9<>|[\]#]/.test(decoded)) t |= REFERENCES;
  }
  let oneAt = -1;
  let run = 0;
  let sep = "";
  for (const m of text.matchAll(/\w+/g)) {
    const w = m[0];
    if (w.length >= 3 && !/^[A-Za-z]+$/.test(w) && leetCue(w, 0, w.length)) t |= LEET;
    if (w.length !== 1 || !letter(w)) continue;
    const gap = text.slice(oneAt + 1, m.index);
    const regular =
      oneAt >= 0 && gap.length >= 1 && gap.length <= 3 && !gap.includes("\n") && gap === (gap[0] as string).repeat(gap.length);
    if (regular && (run === 1 || gap === sep)) {
      run++;
      sep = gap;
      if (run >= 5) t |= SPACED;
    } else run = 1;
    oneAt = m.index;
  }
  return t | accentsOf(text);
}

const isCue = (word: string) => cueClass(wordHash(word.toLowerCase())) !== 0;
const stripped = (word: string) => word.normalize("NFD").replace(/\p{Mn}/gu, "");

/** ACCENTS: two distinct words of four letters or more, with accented Latin letters, that read without them as a cue word and as written do not. */
function accentsOf(text: string): number {
  const counted = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u1E00-\u1EFF]+/g)) {
    const w = m[0];
    const s = stripped(w);
    if (w.length < 4 || /^[A-Za-z]+$/.test(w) || !/^[A-Za-z]+$/.test(s) || s.length !== w.length) continue;
    if (isCue(s) && !isCue(w)) counted.add(s.toLowerCase());
  }
  return counted.size >= 2 ? ACCENTS : 0;
}

/** What a character adds to a folded phrase: itself or its ASCII fold, "" (invisible, a mark), null (it ends the word); `compat` a fold to a letter. */
function partOf(ch: string): { part: string | null; compat: boolean } {
  const cp = ch.codePointAt(0) as number;
  if (cp < 128) return { part: cp > 32 && cp < 127 ? ch : null, compat: false };
  if (FORMAT_OR_HIDDEN.test(ch) || /^\p{Mn}$/u.test(ch)) return { part: "", compat: false };
  if (/^\p{Zs}$/u.test(ch) || LOOKALIKE_LETTERS.includes(ch) || cp >= 0x1f300) return { part: null, compat: false };
  const f = ch.normalize("NFKC");
  const compat = foldsToAscii(ch, cp);
  return { part: (compat || cp >= 0x100) && f !== ch && /^[!-~]+$/.test(f) ? f : null, compat };
}

/**
 * The walk's folded phrases: from each character that folds to an ASCII letter not yet in one, the
 * printable ASCII right before it, its word, and each next word after one space that holds such a
 * character too, folded; a line each, once per raw phrase.
 */
export function foldedWordsOf(text: string): string {
  const chars = [...text];
  const parts = chars.map(partOf);
  const isSpace = (ch: string | undefined) => ch !== undefined && (ch === " " || /^\p{Zs}$/u.test(ch));
  /** The end of the word at `k` and its text. */
  const word = (k: number) => {
    let out = "";
    let compat = false;
    while (k < chars.length && (parts[k] as { part: string | null }).part !== null) {
      out += (parts[k] as { part: string }).part;
      compat ||= (parts[k] as { compat: boolean }).compat;
      k++;
    }
    return { end: k, out, compat };
  };
  let phrases = "";
  const seen = new Set<string>();
  let upTo = 0;
  for (let k = 0; k < chars.length; k++) {
    if (k < upTo || !(parts[k] as { compat: boolean }).compat || (parts[k] as { part: string | null }).part === null) continue;
    let start = k;
    while (start > upTo && /^[!-~]$/.test(chars[start - 1] as string)) start--;
    const first = word(k);
    let phrase = chars.slice(start, k).join("") + first.out;
    let end = first.end;
    while (end + 1 < chars.length && isSpace(chars[end])) {
      const next = word(end + 1);
      if (!next.compat) break;
      phrase += ` ${next.out}`;
      end = next.end;
    }
    upTo = end;
    const raw = chars.slice(start, end).join("");
    if (!seen.has(raw)) phrases += `${phrase}\n`;
    seen.add(raw);
  }
  return phrases;
}
