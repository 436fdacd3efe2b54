/**
 * Held-out figures by source: for each source, the classifier is trained on every
 * other source's rows and the whole scanner (rules and that classifier) judges the
 * held-out source's rows, which it has never seen. Injection sources give recall,
 * benign sources the false-positive rate.
 *
 *   bun scanner/train.ts --evaluate
 */
import { INJECTION_THRESHOLD, scanText } from "../src/pipeline/scan/engine.ts";
import type { LinearModel } from "../src/pipeline/scan/classifier.ts";
import { isOwn, type Row, trainFinal } from "./train.ts";

export interface SourceFigures {
  source: string;
  category: Row["category"];
  rows: number;
  /** Rows flagged as injection by the rules alone, and by rules and classifier. */
  rules: number;
  flagged: number;
}

export const flagsInjection = (text: string, model: LinearModel | null) =>
  scanText(text, { injection: true, model }).injectionScore >= INJECTION_THRESHOLD;

export function heldOutBySource(rows: Row[]): SourceFigures[] {
  const out: SourceFigures[] = [];
  const sources = [
    ...new Set(rows.filter((r) => !isOwn(r) && (r.category === "injection" || r.category === "benign")).map((r) => r.source)),
  ].sort();
  for (const source of sources) {
    const model = trainFinal(rows.filter((r) => r.source !== source));
    for (const category of ["injection", "benign"] as const) {
      const held = rows.filter((r) => r.source === source && r.category === category);
      if (!held.length) continue;
      out.push({
        source,
        category,
        rows: held.length,
        rules: held.filter((r) => flagsInjection(r.text, null)).length,
        flagged: held.filter((r) => flagsInjection(r.text, model)).length,
      });
    }
  }
  return out;
}

/** A fixed third of each source's rows, by a hash of the row id: never trained on when held out. */
export const heldOutRow = (r: Row) => Bun.hash.crc32(r.id) % 3 === 0;

/** Each source split in two: the classifier trained on two thirds of every source, judged on the last third. */
export function heldOutRows(rows: Row[]): SourceFigures[] {
  const model = trainFinal(rows.filter((r) => isOwn(r) || !heldOutRow(r)));
  const held = rows.filter((r) => !isOwn(r) && heldOutRow(r));
  const out: SourceFigures[] = [];
  for (const source of [...new Set(held.map((r) => r.source))].sort()) {
    for (const category of ["injection", "benign"] as const) {
      const of = held.filter((r) => r.source === source && r.category === category);
      if (!of.length) continue;
      out.push({
        source,
        category,
        rows: of.length,
        rules: of.filter((r) => flagsInjection(r.text, null)).length,
        flagged: of.filter((r) => flagsInjection(r.text, model)).length,
      });
    }
  }
  return out;
}

export function evaluateBySource(rows: Row[]): string {
  return `Held-out third of each source:\n${table(heldOutRows(rows))}\n\nEach source left out whole:\n${table(heldOutBySource(rows))}`;
}

function table(figures: SourceFigures[]): string {
  const lines = ["| source | category | rows | rules alone | rules + classifier |", "|---|---|---|---|---|"];
  const rate = (n: number, d: number) => `${n}/${d} (${((100 * n) / d).toFixed(1)}%)`;
  for (const f of figures)
    lines.push(`| ${f.source} | ${f.category} | ${f.rows} | ${rate(f.rules, f.rows)} | ${rate(f.flagged, f.rows)} |`);
  for (const category of ["injection", "benign"] as const) {
    const of = figures.filter((f) => f.category === category);
    const rows = of.reduce((a, f) => a + f.rows, 0);
    lines.push(
      `| all held out | ${category} | ${rows} | ${rate(
        of.reduce((a, f) => a + f.rules, 0),
        rows,
      )} | ${rate(
        of.reduce((a, f) => a + f.flagged, 0),
        rows,
      )} |`,
    );
  }
  return lines.join("\n");
}
