/**
 * The shipped scanner on the held-out injection sources (scanner/data/injection-heldout.jsonl):
 * public sources never trained on, split before their first scan into a tune half and a
 * held-out half (scanner/import-heldout.ts). Each source's halves are judged apart, bare and
 * inside the held-out carriers, in evaluate.ts's table. Prints counts; `--misses` adds the
 * tune half's misses (never the held-out half's: a rule written after one ends its use).
 *
 *   bun scanner/evaluate-heldout.ts [--misses]
 */
import { readFileSync } from "node:fs";
import { INJECTION_MODEL } from "../src/pipeline/scan/classifier.ts";
import { confidence, type Figures, judge, report } from "./evaluate.ts";
import { HELDOUT_FILE, type HeldOutRow } from "./import-heldout.ts";

/** The rows of both halves; only this file, the importer and their test read them. */
export function loadHeldOutRows(): HeldOutRow[] {
  return readFileSync(HELDOUT_FILE, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as HeldOutRow);
}

/** Each source's half judged by the shipped scanner, named "<source> (<half>)". */
export function evaluateHeldOut(rows: HeldOutRow[], half: HeldOutRow["split"]): Figures[] {
  const of = rows.filter((r) => r.split === half);
  return [...new Set(of.map((r) => r.source))].sort().flatMap((source) =>
    judge(
      `${source} (${half})`,
      of.filter((r) => r.source === source),
      INJECTION_MODEL,
    ),
  );
}

/** The tune half's rows the shipped scanner gets wrong: injections not blocked, benign rows blocked. */
export function tuneMisses(rows: HeldOutRow[]): string[] {
  return rows
    .filter((r) => r.split === "tune")
    .filter((r) => (confidence(r.text, INJECTION_MODEL) === "high") !== (r.category === "injection"))
    .map((r) => `${r.id} ${r.category} ${confidence(r.text, INJECTION_MODEL) ?? "none"}: ${r.text.slice(0, 160).replace(/\s+/g, " ")}`);
}

if (import.meta.main) {
  const rows = loadHeldOutRows();
  for (const half of ["tune", "held-out"] as const)
    console.log(`Held-out injection sources, ${half} half, judged by the shipped scanner:\n\n${report(evaluateHeldOut(rows, half))}\n`);
  if (process.argv.includes("--misses")) console.log(`Tune half, wrong:\n${tuneMisses(rows).join("\n")}`);
}
