/**
 * The scanner on its labeled corpus (test/fixtures/scan-corpus.jsonl): precision and
 * recall per category, and false positives on benign text. Fails below the bars:
 * secrets recall 0.98, injection recall 0.90, benign false positives at most 2%.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INJECTION_THRESHOLD, scanText } from "../../../src/pipeline/scan/engine.ts";

interface Case {
  label: "secret" | "injection" | "pii" | "benign";
  text: string;
  role?: "user" | "system";
}

const corpus: Case[] = readFileSync(join(import.meta.dir, "../../fixtures/scan-corpus.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));

function detected(c: Case): Set<string> {
  const r = scanText(c.text, { injection: c.role !== "system" });
  const out = new Set(r.findings.filter((f) => f.category !== "injection").map((f) => f.category));
  if (r.injectionScore >= INJECTION_THRESHOLD) out.add("injection");
  return out;
}

test("precision and recall per category meet the bars", () => {
  const results = corpus.map((c) => ({ c, found: detected(c) }));
  const report: string[] = [];
  const misses: string[] = [];
  const stats: Record<string, { recall: number; precision: number }> = {};
  for (const category of ["secret", "injection", "pii"] as const) {
    const positives = results.filter((r) => r.c.label === category);
    const tp = positives.filter((r) => r.found.has(category)).length;
    const flagged = results.filter((r) => r.found.has(category)).length;
    stats[category] = { recall: tp / positives.length, precision: flagged ? tp / flagged : 1 };
    report.push(
      `${category.padEnd(9)} recall ${(tp / positives.length).toFixed(3)} (${tp}/${positives.length})  precision ${(flagged ? tp / flagged : 1).toFixed(3)} (${tp}/${flagged})`,
    );
    for (const r of positives) if (!r.found.has(category)) misses.push(`missed ${category}: ${JSON.stringify(r.c.text.slice(0, 90))}`);
  }
  const benign = results.filter((r) => r.c.label === "benign");
  const falsePositives = benign.filter((r) => r.found.size > 0);
  report.push(
    `benign    false positives ${(falsePositives.length / benign.length).toFixed(3)} (${falsePositives.length}/${benign.length})`,
  );
  for (const r of falsePositives) misses.push(`false positive ${[...r.found].join("+")}: ${JSON.stringify(r.c.text.slice(0, 90))}`);
  // The full report on request (GW_TEST_REPORT=1): the suite's own output stays a summary.
  if (process.env.GW_TEST_REPORT)
    console.log(`scanner on ${corpus.length} labeled cases\n${report.join("\n")}${misses.length ? `\n${misses.join("\n")}` : ""}`);

  expect(corpus.length).toBeGreaterThanOrEqual(400);
  expect(stats.secret!.recall).toBeGreaterThanOrEqual(0.98);
  expect(stats.injection!.recall).toBeGreaterThanOrEqual(0.9);
  expect(falsePositives.length / benign.length).toBeLessThanOrEqual(0.02);
});
