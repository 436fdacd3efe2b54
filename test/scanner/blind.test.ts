/**
 * The blind rows (scanner/data/blind.jsonl) stay out of training and out of the rules'
 * tests: the training loader, the recorded scan results and the importer's overlap check
 * are held to that here, without a row's text in any message.
 */
import { expect, test } from "bun:test";
import { inTraining } from "../../scanner/import-blind.ts";
import { loadBlindRows } from "../../scanner/evaluate-blind.ts";
import { loadTrainingRows } from "../../scanner/train.ts";
import { labeledRows } from "../pipeline/scan/scan-results.ts";

const blind = loadBlindRows();

test("the blind file holds attributed rows of its sources", () => {
  expect(blind.length).toBeGreaterThan(0);
  for (const r of blind as (ReturnType<typeof loadBlindRows>[number] & { license?: string; ref?: string })[]) {
    expect([
      r.id,
      ["injection", "benign"].includes(r.category),
      Boolean(r.license),
      /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}:/.test(r.ref ?? ""),
    ]).toEqual([r.id, true, true, true]);
  }
});

test("the training loader reads no blind row: no id, no source, no text of theirs", () => {
  const training = loadTrainingRows();
  const ids = new Set(blind.map((r) => r.id));
  const sources = new Set(blind.map((r) => r.source));
  const texts = new Set(blind.map((r) => r.text));
  // Counts, not the rows: a failure message must not show a blind text.
  expect(training.filter((r) => ids.has(r.id)).length).toBe(0);
  expect(training.filter((r) => sources.has(r.source)).length).toBe(0);
  expect(training.filter((r) => texts.has(r.text)).length).toBe(0);
});

test("no blind row is a near copy of a training row (the importer's check still holds)", () => {
  const known = inTraining(loadTrainingRows().map((r) => r.text));
  expect(blind.filter((r) => known(r.text)).length).toBe(0);
  // The check itself can fire: a training row, and a long cut of one, count as known.
  const sample = loadTrainingRows().filter((r) => r.text.length > 200)[0]?.text ?? "";
  expect([known(sample), known(sample.slice(10, 200))]).toEqual([true, true]);
});

test("the recorded scan results pin no verdict on a blind row", () => {
  expect(Object.keys(labeledRows()).filter((f) => f.includes("blind"))).toEqual([]);
});
