/**
 * The held-out injection sources (scanner/data/injection-heldout.jsonl) stay out of training
 * and out of the recorded results, their halves keep the split they were given before the
 * first scan, and the split itself alternates by file; no row's text in any message.
 */
import { expect, test } from "bun:test";
import { loadHeldOutRows } from "../../scanner/evaluate-heldout.ts";
import { inTraining } from "../../scanner/import-blind.ts";
import { split } from "../../scanner/import-heldout.ts";
import { loadTrainingRows } from "../../scanner/train.ts";
import { labeledRows } from "../pipeline/scan/scan-results.ts";

const rows = loadHeldOutRows();

test("every row is attributed, labeled and in one half", () => {
  expect(rows.length).toBeGreaterThan(0);
  const bad = rows.filter(
    (r) =>
      !["injection", "benign"].includes(r.category) ||
      !["tune", "held-out"].includes(r.split) ||
      !r.license ||
      !/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}:/.test(r.ref),
  );
  expect(bad.map((r) => r.id)).toEqual([]);
  // Both halves of every source hold injections.
  for (const source of new Set(rows.map((r) => r.source)))
    for (const half of ["tune", "held-out"])
      expect([source, half, rows.some((r) => r.source === source && r.split === half && r.category === "injection")]).toEqual([
        source,
        half,
        true,
      ]);
});

test("the training loader reads none of them, and none is a near copy of a training row", () => {
  const training = loadTrainingRows();
  const ids = new Set(rows.map((r) => r.id));
  const sources = new Set(rows.map((r) => r.source));
  const texts = new Set(rows.map((r) => r.text));
  expect(training.filter((r) => ids.has(r.id) || sources.has(r.source) || texts.has(r.text)).length).toBe(0);
  const known = inTraining(training.map((r) => r.text));
  expect(rows.filter((r) => known(r.text)).length).toBe(0);
});

test("the recorded scan results pin no verdict on them", () => {
  expect(Object.keys(labeledRows()).filter((f) => f.includes("injection-heldout"))).toEqual([]);
});

test("the split alternates by file within a label, the first file to tune", () => {
  const got = split([
    { file: "b.yaml", category: "injection" },
    { file: "a.yaml", category: "injection" },
    { file: "c.yaml", category: "injection" },
    { file: "z.yaml", category: "benign" },
  ]);
  expect(got.map((r) => `${r.file}:${r.split}`)).toEqual(["a.yaml:tune", "b.yaml:held-out", "c.yaml:tune", "z.yaml:tune"]);
});
