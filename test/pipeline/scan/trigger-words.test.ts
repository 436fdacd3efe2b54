/**
 * The word table the trigger walk reads (trigger-words.ts): every key of the plan's
 * word literals finds its own literals, in order and with their fields; a key it does
 * not hold finds none.
 */
import { describe, expect, test } from "bun:test";
import { ALL_DETECTORS, foldsCase } from "../../../src/pipeline/scan/engine.ts";
import { key3 } from "../../../src/pipeline/scan/trigger-chars.ts";
import { planTriggers } from "../../../src/pipeline/scan/trigger-plan.ts";
import type { Literal } from "../../../src/pipeline/scan/trigger-plan-types.ts";
import { LITERAL_FIELDS, type WordTable, wordSlot, wordTable } from "../../../src/pipeline/scan/trigger-words.ts";

/** The literals a key's slot names, read back from the table's numbers. */
function readBack(table: WordTable, key: number): { text: string; anyCase: boolean; shared: number; feed: number; gate: number }[] | null {
  const at = wordSlot(table, key);
  return at < 0 ? null : readList(table, table.slots[at + 1] as number);
}

/** A list of literals (`first << 8 | count`) read back; `shared` is the offset for a literal found anywhere. */
function readList(table: WordTable, packed: number) {
  return Array.from({ length: packed & 255 }, (_, k) => {
    const l = ((packed >>> 8) + k) * LITERAL_FIELDS;
    const from = table.literals[l] as number;
    const info = table.literals[l + 1] as number;
    return {
      text: String.fromCharCode(...table.chars.subarray(from, from + (info & 0xfff))),
      anyCase: info >>> 24 === 1,
      shared: (info >>> 12) & 0xfff,
      feed: table.literals[l + 2] as number,
      gate: table.literals[l + 3] as number,
    };
  });
}

const fields = (l: Literal) => ({ text: l.text, anyCase: l.anyCase, shared: l.shared, feed: l.feed, gate: l.gate });

describe("the word table", () => {
  const plan = planTriggers(
    ALL_DETECTORS.filter((d) => !foldsCase(d)),
    ALL_DETECTORS.filter(foldsCase),
    [["vault", "hvs."]],
  );

  test("every key of the plan finds its literals, in the plan's order, with their fields", () => {
    const keyed = [...plan.words3, ...plan.words4];
    expect(keyed.length).toBeGreaterThan(500);
    for (const [key, literals] of keyed) expect([key, readBack(plan.words, key)]).toEqual([key, literals.map(fields)]);
    // The gate keyword is one of them, with its gate.
    expect(readBack(plan.words, [...plan.words4].find(([, l]) => l.some((x) => x.text === "vault"))?.[0] ?? 0)).toContainEqual(
      expect.objectContaining({ text: "vault", gate: 0 }),
    );
  });

  test("every ASCII character opening literals anywhere finds them, in order, with their offsets", () => {
    const ascii = [...plan.anywhere].filter(([c]) => c < 128);
    expect(ascii.length).toBeGreaterThan(5);
    for (const [c, literals] of ascii)
      expect([String.fromCharCode(c), readList(plan.words, plan.words.ascii[c] as number)]).toEqual([
        String.fromCharCode(c),
        literals.map((l) => ({ ...fields(l), shared: l.offset })),
      ]);
    // A gate keyword found by its punctuation, with where it begins before it.
    expect(readList(plan.words, plan.words.ascii[46] as number)).toContainEqual(
      expect.objectContaining({ text: "hvs.", shared: 3, gate: 0 }),
    );
    const none = Array.from({ length: 128 }, (_, c) => c).filter((c) => !plan.anywhere.has(c));
    for (const c of none) expect(plan.words.ascii[c]).toBe(0);
  });

  test("a key the plan does not hold finds nothing", () => {
    const held = new Set([...plan.words3.keys(), ...plan.words4.keys()]);
    let misses = 0;
    for (const word of ["zqx", "qqq", "xzv", "jjj", "vvq"]) {
      const key = key3(word.charCodeAt(0), word.charCodeAt(1), word.charCodeAt(2));
      if (held.has(key)) continue;
      expect(wordSlot(plan.words, key)).toBe(-1);
      misses++;
    }
    expect(misses).toBeGreaterThan(0);
  });

  test("a table of a handful of keys finds each of them, and nothing else", () => {
    const lit = (text: string): Literal => ({ text, anyCase: true, feed: 1, offset: 0, gate: -1, shared: 0 });
    const table = wordTable([
      [key3(97, 98, 99), [lit("abc")]],
      [key3(100, 101, 102), [lit("def"), lit("defg")]],
    ]);
    expect(readBack(table, key3(97, 98, 99))?.map((l) => l.text)).toEqual(["abc"]);
    expect(readBack(table, key3(100, 101, 102))?.map((l) => l.text)).toEqual(["def", "defg"]);
    expect(wordSlot(table, key3(120, 121, 122))).toBe(-1);
  });

  test("a key with more literals than a slot counts is refused", () => {
    const many = Array.from(
      { length: 256 },
      (_, k): Literal => ({ text: `abc${k}`, anyCase: true, feed: 1, offset: 0, gate: -1, shared: 3 }),
    );
    expect(() => wordTable([[key3(97, 98, 99), many]])).toThrow(/at most 255 literals/);
  });
});
