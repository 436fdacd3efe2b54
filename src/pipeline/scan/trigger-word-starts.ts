/** The trigger walk at a word's beginning: the key of its first three or four letters, and that key's literals compared as one pass down the list. */
import { charAt, hasBit, isCapital, isDigit, key3, key4, lower, seenSlot } from "./trigger-chars.ts";
import { type Found, hit, push } from "./trigger-found.ts";
import { LITERAL_FIELDS, wordSlot } from "./trigger-words.ts";

/**
 * The literals of one key (sorted as sortWordLiterals leaves them; `packed` as the word
 * table holds them, trigger-words.ts) that stand at `i`, whose first `known` characters
 * matched ignoring case. The case-folding ones are read as one pass down the list:
 * `matched` is how many characters the one before matched, and one sharing more than
 * that fails where it failed, one sharing less fails where they part; only one sharing
 * exactly that many is compared, from there. The same literals are hit as comparing each
 * whole, in list order.
 */
function wordLiterals(f: Found, i: number, packed: number, known: number): void {
  const { literals, chars } = f.plan.words;
  const text = f.text;
  const end = text.length - i;
  const first = packed >>> 8;
  let matched = -1;
  for (let l = first; l < first + (packed & 255); l++) {
    const at = l * LITERAL_FIELDS;
    const from = literals[at] as number;
    const info = literals[at + 1] as number;
    const length = info & 0xfff;
    if (info >>> 24 === 0) {
      // Case-sensitive: every character, the key's too.
      let k = 0;
      while (k < length && k < end && text.charCodeAt(i + k) === chars[from + k]) k++;
      if (k === length) hit(f, i, literals[at + 2] as number, literals[at + 3] as number);
      continue;
    }
    const shared = (info >>> 12) & 0xfff;
    let k = known;
    if (matched >= 0) {
      if (shared !== matched) {
        if (shared < matched) matched = shared;
        continue;
      }
      k = matched;
    }
    while (k < length && k < end && lower(text.charCodeAt(i + k)) === chars[from + k]) k++;
    matched = k;
    if (k === length) hit(f, i, literals[at + 2] as number, literals[at + 3] as number);
  }
}

/** A word begins at `i` with character `c` (a letter, digit or `_`). */
export function wordStart(f: Found, i: number, c: number): void {
  const { text, plan } = f;
  if (c <= 57) {
    if (c >= 48 && plan.digitWord) push(f, i, plan.digitWord);
    return;
  }
  const c1 = charAt(text, i + 1);
  const c2 = charAt(text, i + 2);
  const c3 = charAt(text, i + 3);
  if (plan.capsDigitsWord && isCapital(c) && isCapital(c1) && isDigit(c2) && isDigit(c3)) push(f, i, plan.capsDigitsWord);
  // PAST_END fails these comparisons: no literal runs past the text.
  if (!(c1 <= 255) || !(c2 <= 255)) return;
  const k3 = key3(c, c1, c2);
  const s3 = hasBit(plan.keySeen, seenSlot(k3)) ? wordSlot(plan.words, k3) : -1;
  if (s3 >= 0) wordLiterals(f, i, plan.words.slots[s3 + 1] as number, 3);
  if (!(c3 <= 255)) return;
  const k4 = key4(k3, c3);
  const s4 = hasBit(plan.keySeen, seenSlot(k4)) ? wordSlot(plan.words, k4) : -1;
  if (s4 >= 0) wordLiterals(f, i, plan.words.slots[s4 + 1] as number, 4);
}
