/**
 * The trigger plan's word literals (trigger-plan.ts) laid out flat for the walk
 * (triggers.ts): a key's slot names its literals, whose fields and characters sit in
 * typed arrays. After a pause every line the walk reads is fetched again, and a Map's
 * entry, a list, a literal object and its string were fetched one after the other.
 */
import { seenSlot } from "./trigger-chars.ts";
import type { Literal } from "./trigger-plan.ts";

export interface WordTable {
  /**
   * Open addressing, at most half full, probed from the key's seenSlot: per slot the
   * key (key3 or key4, never 0: a four-letter key is above every three-letter one, so
   * one table holds both; 0 is an empty slot) and its literals as `first << 8 | count`.
   */
  slots: Int32Array;
  /** LITERAL_FIELDS numbers a literal: where its text starts in `chars`, `length | shared << 12 | anyCase << 24`, its feed, its gate (-1: none). */
  literals: Int32Array;
  chars: Uint16Array;
}

export const LITERAL_FIELDS = 4;

/** Where `key`'s pair of numbers begins in `table.slots`, or -1. */
export function wordSlot(table: WordTable, key: number): number {
  const { slots } = table;
  const mask = (slots.length >>> 1) - 1;
  const k = key | 0;
  for (let slot = seenSlot(key) & mask; ; slot = (slot + 1) & mask) {
    const at = slots[slot << 1] as number;
    if (at === k) return slot << 1;
    if (at === 0) return -1;
  }
}

/** The table of each key's literals, in their order. */
export function wordTable(keyed: readonly (readonly [number, readonly Literal[]])[]): WordTable {
  let size = 1024;
  while (size < 2 * keyed.length) size *= 2;
  const count = keyed.reduce((n, [, list]) => n + list.length, 0);
  const table: WordTable = {
    slots: new Int32Array(2 * size),
    literals: new Int32Array(LITERAL_FIELDS * count),
    chars: new Uint16Array(keyed.reduce((n, [, list]) => n + list.reduce((m, l) => m + l.text.length, 0), 0)),
  };
  let literal = 0;
  let char = 0;
  for (const [key, list] of keyed) {
    if (list.length > 255 || literal > 0x7fffff) throw new Error("the word table holds at most 255 literals a key");
    let slot = seenSlot(key) & (size - 1);
    while (table.slots[slot << 1] !== 0) slot = (slot + 1) & (size - 1);
    table.slots[slot << 1] = key | 0;
    table.slots[(slot << 1) + 1] = (literal << 8) | list.length;
    for (const lit of list) {
      if (lit.text.length > 0xfff) throw new Error(`word literal too long: ${lit.text.slice(0, 40)}`);
      const at = literal * LITERAL_FIELDS;
      table.literals[at] = char;
      table.literals[at + 1] = lit.text.length | (lit.shared << 12) | ((lit.anyCase ? 1 : 0) << 24);
      table.literals[at + 2] = lit.feed;
      table.literals[at + 3] = lit.gate;
      for (let k = 0; k < lit.text.length; k++) table.chars[char++] = lit.text.charCodeAt(k);
      literal++;
    }
  }
  return table;
}
