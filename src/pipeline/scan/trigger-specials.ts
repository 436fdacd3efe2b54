/** The trigger walk at its rare characters: a line start, a punctuation mark or another script's letter that opens a literal, an `@`, an assignment's sign, a signed number. */
import { charAt, hasBit, isBlank, isDigit, LOWER, lower, PAST_END, widePair } from "./trigger-chars.ts";
import { type Found, hit, push, wordAt } from "./trigger-found.ts";
import type { Literal, TriggerPlan } from "./trigger-plan-types.ts";
import { LITERAL_FIELDS } from "./trigger-words.ts";
import { REFERENCES, referenceStarts } from "./rewritten-chars.ts";

/**
 * Whether `lit` is at `i`. Its first `known` characters already matched ignoring case
 * (they made the key it was found under), so a case-folding literal is compared from
 * there: on unseen text the comparison is a good part of what a word that begins a
 * literal costs.
 */
function literalAt(text: string, i: number, lit: Literal, known = 0): boolean {
  const t = lit.text;
  if (i < 0 || i + t.length > text.length) return false;
  for (let k = lit.anyCase ? known : 0; k < t.length; k++) {
    const c = text.charCodeAt(i + k);
    if ((lit.anyCase ? lower(c) : c) !== t.charCodeAt(k)) return false;
  }
  return true;
}

/** A line whose first character after up to three blanks is one a line-start pattern opens with. */
export function lineStart(f: Found, p: number, from: number): void {
  const { text, plan } = f;
  let k = from;
  while (k < text.length && k - from < 3 && isBlank(text.charCodeAt(k))) k++;
  if (k >= text.length) return;
  const c = lower(text.charCodeAt(k));
  const feed = c < 256 ? (plan.lineFirstLatin1[c] as number) : plan.lineFirst.get(c);
  if (feed) push(f, p, feed);
  const labelled = c < 128 ? (plan.lineLabelled[c] as number) : 0;
  if (labelled !== 0 && afterLabel(plan, text, k, c)) push(f, p, labelled);
}

/** Whether the run of letters, digits and hyphens at `k` (a label: at most 63) ends at a character that may follow it (labelAfter). */
function afterLabel(plan: TriggerPlan, text: string, k: number, c: number): boolean {
  let j = k;
  while (j < text.length && j - k < 64 && isLabelChar(text.charCodeAt(j))) j++;
  const after = j - k < 64 ? charAt(text, j) : PAST_END;
  return after < 128 && hasBit(plan.labelAfter, c * 128 + after) === 1;
}

const isLabelChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;

/**
 * A character of another script that a literal opens with, at a word's beginning if it is a script letter
 * (detector.ts, NOT_AFTER_LETTER): a start if the literal's first two characters stand here.
 */
export function wideStart(f: Found, i: number, c: number): void {
  const slot = widePair(c, charAt(f.text, i + 1));
  if (((f.plan.widePairs[slot >>> 5] as number) & (1 << (slot & 31))) !== 0) special(f, i, c);
}

/** Whether a literal of `anywhere` may stand at ASCII `c` at `i`, by the characters beside it (anyNext; anyPrev and insideNext). */
function besideLiteral(plan: TriggerPlan, text: string, i: number, c: number): boolean {
  const next = charAt(text, i + 1);
  if (next >= 128 || hasBit(plan.anyNext, c * 128 + next) === 1) return true;
  if (hasBit(plan.insideNext, c * 128 + next) === 0) return false;
  const prev = i > 0 ? text.charCodeAt(i - 1) : PAST_END;
  return prev >= 128 || hasBit(plan.anyPrev, c * 128 + prev) === 1;
}

/**
 * The literals of `packed` (the word table's ASCII list of `c`, trigger-words.ts) that
 * stand at `i`, each beginning its offset before it.
 */
function asciiLiterals(f: Found, i: number, packed: number): void {
  const { literals, chars } = f.plan.words;
  const text = f.text;
  const first = packed >>> 8;
  for (let l = first; l < first + (packed & 255); l++) {
    const at = l * LITERAL_FIELDS;
    const from = literals[at] as number;
    const info = literals[at + 1] as number;
    const length = info & 0xfff;
    const p = i - ((info >>> 12) & 0xfff);
    if (p < 0 || p + length > text.length) continue;
    let k = 0;
    if (info >>> 24 === 0) while (k < length && text.charCodeAt(p + k) === chars[from + k]) k++;
    else while (k < length && lower(text.charCodeAt(p + k)) === chars[from + k]) k++;
    if (k === length) hit(f, i, literals[at + 2] as number, literals[at + 3] as number);
  }
}

/**
 * Whether a name whose last two characters are among `ends` (TriggerPlan.assignments) can stand before the sign at
 * `i` in its 20-character window, read back past what may follow a name there (assignments.ts): blanks (up to
 * ALIGNED: gofmt, Terraform and config files align their signs, and the window then starts past the blanks beyond three), a
 * `]`, a quote and a backslash. A digit there may be the name's own (`b64`), so it rules nothing out; so does a window
 * too short to read two characters in. Prose's comma mostly follows an ending no name has (`however,`).
 */
function mayEndName(text: string, i: number, ends: Uint8Array, aligned: number): boolean {
  const floor = Math.max(0, i - 20 - aligned);
  let k = i - 1;
  while (k >= floor && i - k <= 3 + aligned && isBlank(text.charCodeAt(k))) k--;
  if (k >= floor && text.charCodeAt(k) === 93) k--;
  if (k >= floor && (text.charCodeAt(k) === 34 || text.charCodeAt(k) === 39)) k--;
  if (k >= floor && text.charCodeAt(k) === 92) k--;
  if (k - 1 < floor) return true;
  const last = text.charCodeAt(k);
  if (isDigit(last)) return true;
  const first = text.charCodeAt(k - 1);
  return last < 128 && first < 128 && hasBit(ends, (LOWER[first] as number) * 128 + (LOWER[last] as number)) === 1;
}

/** How many blanks beyond three stand right before the sign at `i` (up to ALIGNED): an aligned column's (`passwd    = "…"`). */
const ALIGNED = 32;
function alignedBlanks(text: string, i: number): number {
  let k = i - 1;
  while (k >= 0 && i - k <= ALIGNED && isBlank(text.charCodeAt(k))) k--;
  return Math.max(0, i - 1 - k - 3);
}

/** An ASCII character some start is marked for (SPECIAL). */
export function special(f: Found, i: number, c: number): void {
  const { text, plan } = f;
  if (c < 128) {
    const packed = plan.words.ascii[c] as number;
    if (packed !== 0 && besideLiteral(plan, text, i, c)) asciiLiterals(f, i, packed);
  } else {
    const literals = plan.anywhere.get(c);
    if (literals) for (const lit of literals) if (literalAt(text, i - lit.offset, lit)) hit(f, i, lit.feed, lit.gate);
  }
  if (c === 10) {
    if (plan.anyLine) lineStart(f, i, i + 1);
  } else if (c === 64) {
    // `@`: an e-mail's local part starts at a boundary within 64 characters before it.
    if (!plan.beforeAt) return;
    for (let p = Math.max(0, i - 64, f.atCovered); p < i; p++) if (wordAt(f, p) !== wordAt(f, p - 1)) push(f, p, plan.beforeAt);
    f.atCovered = i;
    f.ordered = false;
  } else if (c === 58 || c === 61 || c === 44) {
    // `:`, `=` or `,` after a credential-like name: the assignment starts at a word at most 96 characters back
    // (a name of three segments, `CARGO_REGISTRY_TOKEN`, `my.app.db_password`).
    const aligned = alignedBlanks(text, i);
    for (const a of plan.assignments) {
      if (a.ends !== null && !mayEndName(text, i, a.ends, aligned)) continue;
      const before = text.slice(Math.max(0, i - 20 - aligned), i);
      a.name.lastIndex = before.length;
      if (!a.name.test(before)) continue;
      for (let p = Math.max(0, i - 96, f.assignCovered); p < i; p++) if (wordAt(f, p) && !wordAt(f, p - 1)) push(f, p, a.feed);
      f.assignCovered = i;
      f.ordered = false;
    }
  } else if (c === 43 || c === 40) {
    const next = charAt(text, i + 1);
    if (plan.signedNumber && isDigit(next) && (c === 40 || next !== 48)) push(f, i, plan.signedNumber);
  } else if (c === 38 && (f.telling & REFERENCES) === 0 && referenceStarts(text, i)) f.telling |= REFERENCES;
}
