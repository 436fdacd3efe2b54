/**
 * Credentials and personal data, by source: what share of each source's credential
 * rows the scanner blocks, of its personal-data rows it catches, and of its benign
 * rows it would block (a credential) or redact (personal data). Sources the rules
 * were written from are marked; the others were never used to write or tune them.
 *
 *   cd scanner && bun evaluate-detectors.ts          (a markdown table)
 *
 * The public pools: scanner/data/train.jsonl, and train-v2.jsonl from the shared
 * training data (SCAN_TRAIN_V2, or ../shared/data/scan-train/ beside the checkout).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scanText } from "../src/pipeline/scan/engine.ts";
import { type Carrier, generatedCarriers } from "./detector-carriers.ts";
import { type PiiRow, piiHeldOutRows } from "./pii-heldout.ts";

interface Row {
  source: string;
  category: string;
  kind?: string;
  text: string;
  /** Held-out sets are split in halves: misses of the `tune` half may be read and fixed, the `held-out` half is never read. */
  split?: string;
}

type AnyRow = Row | Carrier | PiiRow;

/** The half a row of a split set belongs to, if any. */
const halfOf = (row: AnyRow): string | undefined => ("half" in row ? row.half : "split" in row ? row.split : undefined);

/** Sources the credential and personal-data rules were written from: their figures are not held out. */
const RULE_SOURCES = new Set(["gitleaks/gitleaks", "microsoft/presidio", "own corpus", "generated carriers"]);
/** Held out at first, then read for the misses and the rules widened (docs/scanner.md gives the first figures). */
const TUNED_ON = new Set(["Skyscanner/whispers"]);

/** faker's locales, as the region an organization of that country would set. */
const LOCALE_REGION: Record<string, string> = { en_US: "US", en_GB: "GB", de: "DE", fr: "FR" };

const jsonl = (path: string): Row[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

function secondPool(): Row[] {
  const candidates = [
    process.env.SCAN_TRAIN_V2,
    join(import.meta.dir, "data/train-v2.jsonl"),
    join(import.meta.dir, "../../shared/data/scan-train/train-v2.jsonl"),
    join(import.meta.dir, "../../../shared/data/scan-train/train-v2.jsonl"),
  ].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`train-v2.jsonl not found; set SCAN_TRAIN_V2 (looked in ${candidates.join(", ")})`);
  return jsonl(found);
}

interface Judged {
  source: string;
  category: string;
  secret: boolean;
  pii: boolean;
}

/** The personal data the scanner claims to find; presidio's rows hold national ids of other kinds too. */
const CLAIMED = /email|phone|card|iban|ssn/i;

function judge(row: AnyRow, region: string | undefined): Judged {
  const { findings } = scanText(row.text, { injection: false, phoneRegion: region });
  const half = halfOf(row);
  return {
    source: half ? `${row.source} (${half} half)` : row.source,
    category: row.category === "pii" && row.kind !== undefined && !CLAIMED.test(row.kind) ? "pii of a type not claimed" : row.category,
    secret: findings.some((f) => f.category === "secret"),
    pii: findings.some((f) => f.category === "pii"),
  };
}

/** The region an organization sending this row would have set: faker's locale, a carrier's country; the default otherwise. */
function regionOf(row: AnyRow): string | undefined {
  if ("region" in row && row.region) return row.region;
  const locale = row.kind?.split(":").at(-1) ?? "";
  return LOCALE_REGION[locale];
}

export interface SourceLine {
  source: string;
  category: string;
  rows: number;
  /** Credential rows blocked, personal-data rows caught, or benign rows blocked / redacted. */
  hit: number;
  redacted?: number;
  heldOut: "yes" | "no" | "tuned on";
}

export function evaluate(rows: AnyRow[], useRegion = true): SourceLine[] {
  const judged = rows.map((r) => judge(r, useRegion ? regionOf(r) : undefined));
  const lines: SourceLine[] = [];
  const keys = [...new Set(judged.map((j) => `${j.source}\u0000${j.category}`))].sort();
  for (const key of keys) {
    const [source, category] = key.split("\u0000") as [string, string];
    const of = judged.filter((j) => j.source === source && j.category === category);
    const heldOut = RULE_SOURCES.has(source) || source.endsWith("(tune half)") ? "no" : TUNED_ON.has(source) ? "tuned on" : "yes";
    if (category === "secret") lines.push({ source, category, rows: of.length, hit: of.filter((j) => j.secret).length, heldOut });
    else if (category.startsWith("pii")) lines.push({ source, category, rows: of.length, hit: of.filter((j) => j.pii).length, heldOut });
    else if (category === "benign")
      lines.push({
        source,
        category,
        rows: of.length,
        hit: of.filter((j) => j.secret).length,
        redacted: of.filter((j) => j.pii).length,
        heldOut,
      });
  }
  return lines;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "-");

export function table(lines: SourceLine[]): string {
  const out = ["| source | held out | category | rows | blocked / caught | benign redacted |", "|---|---|---|---|---|---|"];
  for (const l of lines)
    out.push(
      `| ${l.source} | ${l.heldOut} | ${l.category} | ${l.rows} | ${l.hit} (${pct(l.hit, l.rows)}) | ${l.redacted === undefined ? "" : `${l.redacted} (${pct(l.redacted, l.rows)})`} |`,
    );
  return out.join("\n");
}

/** Personal data of a split set by type (`email`, `card`, `iban`, `ssn`, `phone`), one line per half. */
export function byKind(rows: AnyRow[]): SourceLine[] {
  const lines: SourceLine[] = [];
  const split = rows.filter((r) => r.category === "pii" && halfOf(r));
  for (const key of [...new Set(split.map((r) => `${halfOf(r)} half\u0000${r.kind}`))].sort()) {
    const [half, kind] = key.split("\u0000") as [string, string];
    const of = split.filter((r) => `${halfOf(r)} half` === half && r.kind === kind);
    const hit = of.filter((r) => judge(r, regionOf(r)).pii).length;
    lines.push({ source: half, category: kind, rows: of.length, hit, heldOut: half.startsWith("tune") ? "no" : "yes" });
  }
  return lines;
}

/** The held-out credential rows (public test fixtures, scanner/data/secrets-heldout.jsonl) and the generated personal data. */
export function heldOutRows(): AnyRow[] {
  return [...jsonl(join(import.meta.dir, "data/secrets-heldout.jsonl")), ...piiHeldOutRows()];
}

/** Every row the evaluation reads: both public pools, the project's corpus, the generated carriers and the held-out sets. */
export function allRows(): AnyRow[] {
  const corpus = jsonl(join(import.meta.dir, "../test/fixtures/scan-corpus.jsonl")).map((c) => ({
    ...c,
    source: "own corpus",
    category: (c as unknown as { label: string }).label,
  }));
  const relevant = (r: Row) => r.category === "secret" || r.category === "pii" || r.category === "benign";
  return [...jsonl(join(import.meta.dir, "data/train.jsonl")), ...secondPool(), ...corpus, ...generatedCarriers(), ...heldOutRows()].filter(
    (r) => relevant(r as Row),
  );
}

if (import.meta.main) {
  const rows = allRows();
  const misses = process.argv.includes("--misses");
  console.log(`## Credentials and personal data by source (organization's phone region from the row's locale)\n\n${table(evaluate(rows))}`);
  console.log(`\n## Personal data of the split sets by type\n\n${table(byKind(rows))}`);
  const phones = rows.filter((r) => r.category === "pii" && (r.kind ?? "").includes("phone") && !halfOf(r));
  console.log(`\n## Phone rows with the default region (US)\n\n${table(evaluate(phones, false))}`);
  // Misses of the tune halves and the rule sources only: the held-out halves stay unread.
  if (misses)
    for (const r of rows.filter((r) => halfOf(r) !== "held-out")) {
      const j = judge(r, regionOf(r));
      const wrong = (r.category === "secret" && !j.secret) || (r.category === "pii" && !j.pii) || (r.category === "benign" && j.secret);
      if (wrong) console.log(`${r.source} ${r.category} ${r.kind ?? ""}: ${JSON.stringify(r.text.slice(0, 160))}`);
    }
}
