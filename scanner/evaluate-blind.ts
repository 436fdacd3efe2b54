/**
 * The shipped scanner on the blind rows (scanner/data/blind.jsonl): sources no one on the
 * team read before this figure was made, never trained on (loadTrainingRows does not read
 * them) and never used for a rule or a rule's test. The shipped classifier weights and
 * thresholds judge each source's rows bare and inside the held-out carriers
 * (carriers.ts TEMPLATES.heldOut), in evaluate.ts's table. Prints counts only, never a
 * row's text: a miss read here would be a rule written for it, and the figure would no
 * longer be blind.
 *
 *   bun scanner/evaluate-blind.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INJECTION_MODEL } from "../src/pipeline/scan/classifier.ts";
import { type Figures, judge, report } from "./evaluate.ts";
import type { Row } from "./train.ts";

export const BLIND_FILE = join(import.meta.dir, "data/blind.jsonl");

/** The blind rows; only this file and the importer (import-blind.ts) read them. */
export function loadBlindRows(): Row[] {
  return readFileSync(BLIND_FILE, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Row);
}

/** Each blind source judged by the shipped scanner: no model is trained here. */
export function evaluateBlind(rows: Row[]): Figures[] {
  const sources = [...new Set(rows.map((r) => r.source))].sort();
  return sources.flatMap((source) =>
    judge(
      source,
      rows.filter((r) => r.source === source),
      INJECTION_MODEL,
    ),
  );
}

if (import.meta.main) {
  console.log(`Blind sources, judged by the shipped scanner (weights trained without them):\n\n${report(evaluateBlind(loadBlindRows()))}`);
}
