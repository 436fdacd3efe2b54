/**
 * Every held-out figure docs/scanner.md reports, from the committed data and code:
 *
 *   bun scanner/report.ts
 *
 * Injection: the classifier retrained without the held-out rows (scanner/evaluate.ts),
 * each source left out whole, then a third of each source (a few minutes in all); then the
 * held-out kits' two halves with the shipped weights (scanner/evaluate-heldout.ts).
 * Secrets and personal data: rules only, never fitted to these rows, so every public
 * row is held out.
 */
import { scanText } from "../src/pipeline/scan/engine.ts";
import { evaluateBySource, report } from "./evaluate.ts";
import { evaluateHeldOut, loadHeldOutRows } from "./evaluate-heldout.ts";
import { loadRows, loadTrainingRows, type Row } from "./train.ts";

const rows = loadRows().filter((r) => !r.source.startsWith("project/")) as (Row & { kind: string })[];
const found = (r: Row, category: "secret" | "pii") => scanText(r.text, { injection: false }).findings.some((f) => f.category === category);
const rate = (n: number, d: number) => `${n}/${d} (${((100 * n) / d).toFixed(1)}%)`;

function byKind(category: "secret" | "pii"): string {
  const lines = ["| kind | rows | found |", "|---|---|---|"];
  const of = rows.filter((r) => r.category === category);
  for (const kind of [...new Set(of.map((r) => r.kind))].sort()) {
    const k = of.filter((r) => r.kind === kind);
    lines.push(`| ${kind} | ${k.length} | ${k.filter((r) => found(r, category)).length} |`);
  }
  lines.push(`| all | ${of.length} | ${rate(of.filter((r) => found(r, category)).length, of.length)} |`);
  return lines.join("\n");
}

const CLAIMED = new Set(["presidio:EMAIL", "presidio:PHONE", "presidio:CARD", "presidio:IBAN", "presidio:us_ssn"]);
const claimed = rows.filter((r) => r.category === "pii" && CLAIMED.has(r.kind));
const benignSecrets = rows.filter((r) => r.category === "benign" && found(r, "secret")).length;
const benign = rows.filter((r) => r.category === "benign").length;

console.log(`## Injection\n\n${evaluateBySource(loadTrainingRows())}\n\n${evaluateBySource(loadTrainingRows(), true)}\n`);
for (const half of ["tune", "held-out"] as const)
  console.log(`Held-out kits, ${half} half (shipped weights):\n\n${report(evaluateHeldOut(loadHeldOutRows(), half))}\n`);
console.log(`## Secrets (gitleaks/gitleaks)\n\n${byKind("secret")}\n\nBenign rows with a secret finding: ${rate(benignSecrets, benign)}\n`);
console.log(
  `## Personal data (microsoft/presidio)\n\n${byKind("pii")}\n\nClaimed types (e-mail, phone, card, IBAN, SSN): ${rate(claimed.filter((r) => found(r, "pii")).length, claimed.length)}`,
);
