/**
 * HTML character references read as the characters they stand for: `&#105;`, `&#x69;` and named
 * ones (`&lt;`, `&vert;`), decoded by the `entities` package (the HTML standard's table). A page or a
 * tool result may carry an instruction written that way, which a model reads as the letters.
 */
import { decodeHTML, decodeHTMLStrict } from "entities";
import { isAsciiLetter, isDigit } from "./trigger-chars.ts";

const isHex = (c: number) => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);

/**
 * Where the reference at `i` (an `&`) ends, or -1: a numeric one (its `;` optional, as browsers read
 * it) or a named one with its `;` (without it `&copy` in "R&D &copy" is ordinary text to us, though
 * legacy HTML reads it). Compared character by character: every `&` of a text is tried.
 */
function referenceEnd(text: string, i: number): number {
  let k = i + 1;
  const c = text.charCodeAt(k);
  if (c === 35) {
    const hex = (text.charCodeAt(k + 1) | 0x20) === 120;
    k += hex ? 2 : 1;
    const from = k;
    while (k < text.length && k - from < (hex ? 6 : 7) && (hex ? isHex : isDigit)(text.charCodeAt(k))) k++;
    if (k === from) return -1;
    return text.charCodeAt(k) === 59 ? k + 1 : k;
  }
  if (!isAsciiLetter(c)) return -1;
  k++;
  while (k < text.length && k - i <= 32 && (isAsciiLetter(text.charCodeAt(k)) || isDigit(text.charCodeAt(k)))) k++;
  return k - i >= 3 && text.charCodeAt(k) === 59 ? k + 1 : -1;
}

/** A decoding, and whether it hides a word's or a template's character (`hides`). */
interface Decoded {
  decoded: string;
  end: number;
  hides: boolean;
}

/** Decodings met so far, by reference (an HTML page repeats a few: `&amp;`, `&nbsp;`, `&#39;`). */
const DECODED = new Map<string, Omit<Decoded, "end"> | null>();
/** A letter, a digit or a chat template's punctuation, before or after compatibility folding (`&#65313;` is `Ａ`). */
const HIDES = /[A-Za-z0-9<>|[\]#]/;

/**
 * The reference at `i` (an `&`): what it decodes to, where it ends and whether it hides a letter,
 * a digit or a template's punctuation (an escaped page's `&amp;`, `&quot;`, `&#39;` and `&nbsp;` hide
 * none), or null when none stands there or it names nothing.
 */
export function referenceAt(text: string, i: number): Decoded | null {
  const end = referenceEnd(text, i);
  if (end < 0) return null;
  const ref = text.slice(i, end);
  let known = DECODED.get(ref);
  if (known === undefined) {
    // Named ones strictly: the whole name and its `;` (legacy HTML would read `&not` in `&notanentity;`).
    const decoded = ref.charCodeAt(1) === 35 ? decodeHTML(ref) : decodeHTMLStrict(ref);
    known = decoded === ref ? null : { decoded, hides: HIDES.test(decoded) || HIDES.test(decoded.normalize("NFKC")) };
    if (DECODED.size < 4096) DECODED.set(ref, known);
  }
  return known === null ? null : { ...known, end };
}
