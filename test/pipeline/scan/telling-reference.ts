/**
 * The telling bits (rewritten-chars.ts) worked out plainly, character by character from the
 * runtime's Unicode properties and word by word from regular expressions: what the trigger
 * walk's bits must equal (triggers.test.ts), and the exhaustive scan's (exhaustive-scan.ts).
 */
import { LOOKALIKE_LETTERS } from "../../../src/pipeline/scan/confusables.ts";
import { referenceAt } from "../../../src/pipeline/scan/html-references.ts";
import {
  COMPAT,
  foldsToAscii,
  LEET,
  LOOKALIKE,
  leetCue,
  MARKS,
  REFERENCES,
  SPACED,
  SPACES,
} from "../../../src/pipeline/scan/rewritten-chars.ts";

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
    } else if (cp < 0x1f300 && foldsToAscii(ch, cp)) t |= COMPAT;
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
  return t;
}
