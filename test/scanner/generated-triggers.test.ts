/**
 * The generated trigger-word rows (scanner/generated-triggers.ts): the same every run, about
 * 400 benign rows of the project's own source, every kind and language present, trained on,
 * and none of them a sentence of the fixture that judges the scanner on such text.
 */
import { expect, test } from "bun:test";
import { generatedTriggerRows, TRIGGERS_SOURCE } from "../../scanner/generated-triggers.ts";
import { loadTrainingRows } from "../../scanner/train.ts";
import { ABOUT_ATTACKS } from "../fixtures/about-attacks.ts";
import { ORDINARY_TRIGGERS } from "../fixtures/ordinary-triggers.ts";

const rows = generatedTriggerRows();
const normal = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

test("the same rows every run from the same seed, others from another, ids and texts unique", () => {
  expect(generatedTriggerRows()).toEqual(rows);
  expect(generatedTriggerRows(48).map((r) => r.text)).not.toEqual(rows.map((r) => r.text));
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  expect(new Set(rows.map((r) => r.text)).size).toBe(rows.length);
});

test("about 400 benign rows of the project's own source, trained on", () => {
  expect(rows.length).toBeGreaterThanOrEqual(380);
  expect(rows.length).toBeLessThanOrEqual(450);
  expect(new Set(rows.map((r) => [r.source, r.category].join(" ")))).toEqual(new Set([`${TRIGGERS_SOURCE} benign`]));
  const trained = new Set(loadTrainingRows().map((r) => r.id));
  expect(rows.every((r) => trained.has(r.id))).toBe(true);
});

test("every kind is there: mindfulness, negated overrides, others' instructions, learners, names, IT help, games, framed", () => {
  const has = (re: RegExp) => rows.filter((r) => re.test(r.text)).length;
  expect({
    mindfulness: has(/focus on|attention back to|notice /) >= 20,
    negated: has(/\b(?:don't|never|do not|shouldn't|would not) (?:ignore|disregard|forget|override|bypass)/i) >= 20,
    owned: has(/'s (?:old sheet|instructions|note)/) >= 20,
    learner: has(/forget (?:everything|what|all the rules)/i) >= 20,
    names: has(/\.(?:txt|yaml|md|conf|pdf|json|xlsx|log|sql)\b|prompt_templates|field|page|button|option|tab|menu|screen/) >= 20,
    itHelp: has(/password|override the default|bypass the proxy/i) >= 20,
    games: has(/\b(?:act as|you are) (?:a|an) /i) >= 15,
    framed: has(/\n/) >= 60,
  }).toEqual({ mindfulness: true, negated: true, owned: true, learner: true, names: true, itHelp: true, games: true, framed: true });
});

test("each of the seven other languages has its rows", () => {
  const markers: Record<string, RegExp> = {
    de: /\b(?:Vergiss|Ignoriere|Anweisungen)\b/,
    fr: /\b(?:Oubliez|N'ignorez|N'oublie|instructions du|consignes)\b/,
    es: /\b(?:Olvida|ignores|olvides|instrucciones)\b/,
    it: /\b(?:Dimentica|ignorare|dimenticare|istruzioni)\b/,
    pt: /(?:Esqueça|Não ignore|instruções|esqueça)/,
    nl: /\b(?:Vergeet|Negeer|instructies)\b/,
    pl: /(?:Zapomnij|Nie ignoruj|Zignoruj|instrukcji)/,
  };
  for (const [lang, re] of Object.entries(markers)) expect([lang, rows.filter((r) => re.test(r.text)).length >= 10]).toEqual([lang, true]);
});

test("no row is, or holds, a sentence of the fixtures that judge the scanner", () => {
  const fixture = [...ORDINARY_TRIGGERS, ...ABOUT_ATTACKS].map((r) => normal(r.text));
  const copied = rows.filter((r) => fixture.some((f) => normal(r.text).includes(f)));
  expect(copied.map((r) => r.text)).toEqual([]);
});
