/**
 * The trigger plan's literals (trigger-plan.ts) laid out flat for the walk
 * (triggers.ts): a word's key, or an ASCII character, names its literals, whose fields
 * and characters sit in typed arrays. After a pause every line the walk reads is
 * fetched again, and a Map's entry, a list, a literal object and its string were
 * fetched one after the other.
 */
import { seenSlot } from "./trigger-chars.ts";

/** What the table keeps of a literal: trigger-plan-types.ts's Literal, named here so the plan imports this file and not the reverse. */
interface Literal {
  text: string;
  anyCase: boolean;
  feed: number;
  offset: number;
  gate: number;
  shared: number;
}

export interface WordTable {
  /**
   * Open addressing, at most half full, probed from the key's seenSlot: per slot the
   * key (key3 or key4, never 0: a four-letter key is above every three-letter one, so
   * one table holds both; 0 is an empty slot) and its literals as `first << 8 | count`.
   */
  slots: Int32Array;
  /** The literals, LITERAL_FIELDS numbers each, each list followed by its characters (see packLiterals). */
  literals: Int32Array;
  chars: Uint16Array;
  /** Per ASCII character, the literals found anywhere that it opens or, for a gate keyword, stands in (`first << 8 | count`; 0: none). */
  ascii: Int32Array;
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

/**
 * Lists of literals as LITERAL_FIELDS numbers each: where its text starts in `chars`;
 * `length | extra << 12 | anyCase << 24`, `extra` being what it shares with the one
 * before for a word literal (Literal.shared) and its offset for one found anywhere
 * (Literal.offset; a word literal has none, one found anywhere shares nothing); its
 * feed; its gate (-1: none). Each list as `first << 8 | count`, `first` counted in
 * records of LITERAL_FIELDS numbers.
 *
 * One buffer holds both: each list's records, then its characters (`chars` is the same
 * buffer read two bytes at a time), padded to a whole record. After a pause a word that
 * opens literals fetches its list's records and then their characters, one waiting on
 * the other; side by side, they are mostly the same or the next line.
 */
function packLiterals(lists: readonly (readonly Literal[])[]): { literals: Int32Array; chars: Uint16Array; packed: number[] } {
  // A list's characters, two a number, in whole records.
  const charRecords = (list: readonly Literal[]) =>
    LITERAL_FIELDS * Math.ceil(list.reduce((m, l) => m + l.text.length, 0) / (2 * LITERAL_FIELDS));
  const size = lists.reduce((n, list) => n + LITERAL_FIELDS * list.length + charRecords(list), 0);
  const buffer = new ArrayBuffer(4 * size);
  const literals = new Int32Array(buffer);
  const chars = new Uint16Array(buffer);
  let at = 0;
  const packed = lists.map((list) => {
    const first = at / LITERAL_FIELDS;
    if (list.length > 255 || first > 0x7fffff) throw new Error("the word table holds at most 255 literals a key");
    let char = 2 * (at + LITERAL_FIELDS * list.length);
    for (const lit of list) {
      const extra = lit.shared || lit.offset;
      if (lit.text.length > 0xfff || extra > 0xfff) throw new Error(`literal too long: ${lit.text.slice(0, 40)}`);
      literals[at] = char;
      literals[at + 1] = lit.text.length | (extra << 12) | ((lit.anyCase ? 1 : 0) << 24);
      literals[at + 2] = lit.feed;
      literals[at + 3] = lit.gate;
      for (let k = 0; k < lit.text.length; k++) chars[char++] = lit.text.charCodeAt(k);
      at += LITERAL_FIELDS;
    }
    at += charRecords(list);
    return (first << 8) | list.length;
  });
  return { literals, chars, packed };
}

/** The table of each key's literals, in their order, and of the literals found anywhere by ASCII character (`anywhere`). */
export function wordTable(
  keyed: readonly (readonly [number, readonly Literal[]])[],
  anywhere: ReadonlyMap<number, readonly Literal[]> = new Map(),
): WordTable {
  let size = 1024;
  while (size < 2 * keyed.length) size *= 2;
  const ascii = [...anywhere].filter(([c]) => c < 128);
  const { literals, chars, packed } = packLiterals([...keyed.map(([, list]) => list), ...ascii.map(([, list]) => list)]);
  const table: WordTable = { slots: new Int32Array(2 * size), literals, chars, ascii: new Int32Array(128) };
  keyed.forEach(([key], k) => {
    let slot = seenSlot(key) & (size - 1);
    while (table.slots[slot << 1] !== 0) slot = (slot + 1) & (size - 1);
    table.slots[slot << 1] = key | 0;
    table.slots[(slot << 1) + 1] = packed[k] as number;
  });
  ascii.forEach(([c], k) => (table.ascii[c] = packed[keyed.length + k] as number));
  return table;
}
