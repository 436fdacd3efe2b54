/** How the trigger plan lays out its literals: a key's word literals in the walk's order, the neighbours a literal found anywhere may have, and the Latin-1 check on a word literal. */
import { LOWER, lower, setBit } from "./trigger-chars.ts";
import type { Literal, TriggerPlan } from "./trigger-plan-types.ts";

/**
 * Marks what may stand beside `c` for `lit` to be there: the character after it for a
 * literal it opens (any, when the literal ends at it), the one before it for a keyword it
 * sits inside. Marked lower-cased, as the walk reads them; a non-ASCII neighbour is never
 * ruled out there, so only ASCII ones are marked.
 */
export function neighbours(plan: TriggerPlan, c: number, lit: Literal): void {
  if (lit.offset === 0) mark(plan.anyNext, c, lit.text, 1);
  else {
    mark(plan.anyPrev, c, lit.text, lit.offset - 1);
    mark(plan.insideNext, c, lit.text, lit.offset + 1);
  }
}

/** Marks `text`'s character at `at` (every character past its end, none when it is not ASCII) beside `c`. */
export function mark(bits: Uint8Array, c: number, text: string, at: number): void {
  const n = at < text.length ? text.charCodeAt(at) : -1;
  if (n >= 128) return;
  for (let x = 0; x < 128; x++) if (n < 0 || (LOWER[x] as number) === lower(n)) setBit(bits, c * 128 + x);
}
/**
 * One key's word literals, the case-sensitive ones first as they were, then the
 * case-folding ones in code-unit order, each with what it shares with the one before:
 * the trigger walk compares them as one pass down the list (trigger-word-starts.ts, wordLiterals),
 * and `without`, `without `, `without telling`... are read once, not once each.
 */
export function sortWordLiterals(literals: Literal[]): Literal[] {
  // Plain loops: this runs once per key (about a thousand) at start-up, before the JIT has compiled anything, where
  // each filter, spread and callback of the version it replaced cost tens of microseconds.
  if (literals.length === 1) {
    const only = literals[0] as Literal;
    if (only.anyCase) only.shared = 0;
    return literals;
  }
  const sensitive: Literal[] = [];
  const folding: Literal[] = [];
  for (const l of literals) (l.anyCase ? folding : sensitive).push(l);
  folding.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  let before = "";
  for (const l of folding) {
    let n = 0;
    while (n < before.length && n < l.text.length && before.charCodeAt(n) === l.text.charCodeAt(n)) n++;
    l.shared = n;
    before = l.text;
    sensitive.push(l);
  }
  return sensitive;
}
/** Whether the first `n` characters of `text` are Latin-1 (a character beyond it has a first code unit above 255). */
export const latin1 = (text: string, n: number) => {
  for (let k = 0; k < n && k < text.length; k++) if (text.charCodeAt(k) > 255) return false;
  return true;
};
