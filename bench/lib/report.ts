/** The run's results as a Markdown table and a JSON file under bench/results/. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Row {
  scenario: string;
  title: string;
  target: string;
  kind: string;
  rps?: number;
  rpsVsBare?: number;
  p50?: number;
  p90?: number;
  p99?: number;
  /** Latency added over the direct call, p50 and p99 (µs). */
  addedP50?: number;
  addedP99?: number;
  cpuPerRequest?: number;
  /** The part of cpuPerRequest spent on the main (JavaScript) thread. */
  mainCpuPerRequest?: number;
  cpuVsBare?: number;
  ttfbP50?: number;
  ttfbAdded?: number;
  totalP50?: number;
  readsP50?: number;
  peakRssMiB?: number;
  errors: number;
}

export interface Check {
  budget: string;
  measured: string;
  ok: boolean | null;
}

const n = (v: number | undefined, digits = 0) =>
  v === undefined || Number.isNaN(v) ? "" : v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? "" : `${v.toFixed(2)}×`);

export function markdown(rows: Row[], checks: Check[], notes: string[]): string {
  const out: string[] = [];
  out.push(
    "| scenario | target | req/s | vs bare | p50 µs | p90 µs | p99 µs | added p50 µs | added p99 µs | CPU µs/req | vs bare | TTFB p50 µs | TTFB added µs | stream total p50 µs | reads/stream | peak RSS MiB | errors |",
  );
  out.push("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  for (const r of rows) {
    out.push(
      `| ${r.title} | ${r.target} | ${n(r.rps)} | ${ratio(r.rpsVsBare)} | ${n(r.p50)} | ${n(r.p90)} | ${n(r.p99)} | ${n(r.addedP50)} | ${n(r.addedP99)} | ${n(r.cpuPerRequest)} | ${ratio(r.cpuVsBare)} | ${n(r.ttfbP50)} | ${n(r.ttfbAdded)} | ${n(r.totalP50)} | ${n(r.readsP50)} | ${n(r.peakRssMiB, 1)} | ${r.errors} |`,
    );
  }
  if (checks.length) {
    out.push("", "| budget | measured | verdict |", "|---|---|---|");
    for (const c of checks) out.push(`| ${c.budget} | ${c.measured} | ${c.ok === null ? "not judged" : c.ok ? "met" : "**missed**"} |`);
  }
  if (notes.length) out.push("", ...notes.map((x) => `- ${x}`));
  return out.join("\n");
}

/** A result file's name stamp: the time, to the second, with no colons. */
export function resultStamp(at = new Date()): string {
  return at.toISOString().slice(0, 19).replace(/:/g, "-");
}

export function writeResults(dir: string, stamp: string, data: object, table: string): string {
  mkdirSync(dir, { recursive: true });
  const base = join(dir, stamp);
  writeFileSync(`${base}.json`, `${JSON.stringify(data, null, 2)}\n`);
  writeFileSync(`${base}.md`, `${table}\n`);
  return base;
}
