/**
 * The generated multilingual and business rows (scanner/generated-multilingual.ts) and the
 * third public pool (scanner/data/train-v3.jsonl): the same every run, of the project's
 * own sources, most business e-mails pasted as data, every language of the red-team kits and locales present with as many
 * ordinary requests as attacks, and the public rows carrying their license and reference.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generatedMultilingualRows } from "../../scanner/generated-multilingual.ts";
import { EUROPE } from "../../scanner/multilingual-phrases.ts";
import { WORLD } from "../../scanner/multilingual-phrases-world.ts";
import { loadTrainingRows } from "../../scanner/train.ts";

const LANGUAGES = ["de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "tr", "zh", "ja", "ko", "ar", "hi", "vi", "id", "sv"];

test("the same rows every run, labeled, of the project's own sources, ids unique", () => {
  const rows = generatedMultilingualRows();
  expect(generatedMultilingualRows()).toEqual(rows);
  expect(new Set(rows.map((r) => r.source))).toEqual(new Set(["project/generated-multilingual", "project/generated-business"]));
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  expect(rows.filter((r) => r.source === "project/generated-business").every((r) => r.category === "benign")).toBe(true);
});

test("most business e-mails arrive pasted (a question, a blank line, headers): their requests stand inside data, as in a carrier", () => {
  const business = generatedMultilingualRows().filter((r) => r.source === "project/generated-business");
  const pasted = business.filter((r) => /^[^\n]+\n\nSubject: [^\n]+\n\n/.test(r.text));
  expect(pasted.length / business.length).toBeGreaterThan(0.5);
  expect(pasted.length).toBeLessThan(business.length);
});

test("every language has each kind of attack and at least as many ordinary requests as attacks", () => {
  const phrases = { ...EUROPE, ...WORLD };
  expect(Object.keys(phrases).sort()).toEqual([...LANGUAGES].sort());
  const rows = generatedMultilingualRows() as (ReturnType<typeof generatedMultilingualRows>[number] & { lang?: string })[];
  for (const lang of LANGUAGES) {
    const p = phrases[lang];
    const kinds = p ? [p.override, p.goal, p.extract, p.role, p.planted, p.hijack].map((k) => k.length > 0) : [];
    const mine = rows.filter((r) => r.lang === lang);
    const attacks = mine.filter((r) => r.category === "injection").length;
    const ordinary = mine.filter((r) => r.category === "benign").length;
    expect({ lang, kinds, enough: attacks >= 15 && ordinary >= attacks }).toEqual({ lang, kinds: kinds.map(() => true), enough: true });
  }
});

test("the third pool's rows name their license and where they were copied from, and train with the rest", () => {
  const v3 = readFileSync(join(import.meta.dir, "../../scanner/data/train-v3.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(v3.length).toBeGreaterThan(0);
  for (const r of v3) expect([r.license, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}:/.test(r.ref)]).toEqual(["MIT", true]);
  // Attacks, and the same goals asked plainly (what makes the attack is its framing).
  expect(new Set(v3.map((r) => r.category))).toEqual(new Set(["injection", "benign"]));
  const ids = new Set(loadTrainingRows().map((r) => r.id));
  expect(v3.every((r) => ids.has(r.id))).toBe(true);
});
