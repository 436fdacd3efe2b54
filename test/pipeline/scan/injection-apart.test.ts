/**
 * Precision of the injection rules tried apart (injection-apart.ts: other languages,
 * data addressed to the model, requests for its secrets, jailbreaks, more English forms)
 * on every benign row the project has: both public pools, the hand corpus, the
 * discussion questions and the generated ordinary rows. Each rule is searched through
 * each row on its own (a global search, no trigger pass, no classifier), so a rule
 * that would fire on a benign row anywhere in a text is caught here.
 */
import { expect, test } from "bun:test";
import { CARRIER_KINDS, carry, random, TEMPLATES } from "../../../scanner/carriers.ts";
import { loadTrainingRows } from "../../../scanner/train.ts";
import type { Detector } from "../../../src/pipeline/scan/detector.ts";
import { scanText } from "../../../src/pipeline/scan/engine.ts";
import { APART_INJECTION_DETECTORS } from "../../../src/pipeline/scan/injection-apart.ts";
import { scanExhaustively, scanSummary } from "./exhaustive-scan.ts";

const NEW_RULES: Detector[] = APART_INJECTION_DETECTORS;
const searches = NEW_RULES.map((d) => ({ weight: d.weight ?? 1, regex: new RegExp(d.pattern, "gi") }));

/** The summed weight of the new rules' matches in a text. */
function newRulesWeight(text: string): number {
  let sum = 0;
  for (const { weight, regex } of searches) for (const m of text.matchAll(regex)) if (m[0] !== "") sum += weight;
  return sum;
}

const benign = loadTrainingRows().filter((r) => r.category !== "injection");

test("the pools are all there", () => {
  expect(benign.length).toBeGreaterThan(3000);
  expect(new Set(benign.map((r) => r.source)).size).toBeGreaterThan(8);
});

test("nor inside the carriers: each row in one of them (e-mail, page, code review, tool result, document), templates of both sets", () => {
  const next = random(33);
  const fired: string[] = [];
  benign.forEach((r, i) => {
    const kind = CARRIER_KINDS[i % CARRIER_KINDS.length] as (typeof CARRIER_KINDS)[number];
    const carried = carry(kind, r.text, i % 2 === 0 ? TEMPLATES.train : TEMPLATES.heldOut, next);
    if (newRulesWeight(carried) > 0) fired.push(`${r.id} in ${kind}`);
  });
  expect(fired).toEqual([]);
});

test("no benign row reaches the block threshold with the new rules, and none of them fires at all", () => {
  const fired = benign.map((r) => ({ id: r.id, source: r.source, weight: newRulesWeight(r.text) })).filter((r) => r.weight > 0);
  expect(fired.filter((r) => r.weight >= 1)).toEqual([]);
  // Flags (a weak rule alone) are counted too: none today.
  expect(fired).toEqual([]);
});

test("on the pools' short attacks, in every language and script, the trigger pass finds what a search at every position finds", () => {
  const attacks = loadTrainingRows().filter((r) => r.category === "injection" && r.text.length <= 400);
  expect(attacks.length).toBeGreaterThan(300);
  const opts = { injection: true, model: null };
  for (const r of attacks) expect([r.id, scanSummary(scanText(r.text, opts))]).toEqual([r.id, scanSummary(scanExhaustively(r.text, opts))]);
});
