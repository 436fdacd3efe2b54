/**
 * The sentence encoder (scanner/sentence-encoder.ts) against the injection classifier, held out
 * by source as scanner/evaluate.ts does: each public source left out whole; on the rest, the
 * linear classifier as shipped (trainFinal) and logistic regressions on the encoder's vectors,
 * (a) alone and (b) with the linear model's logit as one feature more, each thresholded by
 * train.ts's rule (0.1% of unseen benign weight, each benign source left out in turn, bare and
 * carried, each source weighing the same); (c) a cascade that runs (b) only on texts the
 * linear model puts between its flag and block thresholds. The left-out rows are judged bare
 * and inside the held-out carriers (evaluate.ts's sets). Prints counts per source, never a row.
 *
 *   bun scanner/sentence-encoder-evaluate.ts --fill [--kits] [--blind] [--windows]   embed every text read into the cache
 *   bun scanner/sentence-encoder-evaluate.ts --linear [--kits]   the folds' linear models alone, cached (no vectors needed)
 *   bun scanner/sentence-encoder-evaluate.ts [--only "a,b"] [--kits] [--blind] [--windows]
 *
 * --packs/--from as scanner/sentence-encoder.ts (the encoder is loaded only to embed what the
 * cache lacks). --kits and --blind add a model trained on every row judging the held-out kits
 * (scanner/data/injection-heldout.jsonl, both halves, counts only) and the blind source
 * (scanner/data/blind.jsonl, counts only; each look is recorded in docs/scanner.md).
 * --windows scores a text by its highest 128-token window (the model reads 128 tokens and
 * drops the rest). The folds themselves are scanner/sentence-encoder-fold.ts (USE_L2, default
 * 0.01). About twenty minutes of linear training the first time (cached in /tmp/use-cache),
 * then a minute or two a run; embedding every text once takes about half an hour.
 */
import { parseArgs } from "node:util";
import { classifierConfidence, windowLogit } from "../src/pipeline/scan/classifier.ts";
import { confidence, sets } from "./evaluate.ts";
import { loadBlindRows } from "./evaluate-blind.ts";
import { loadHeldOutRows } from "./evaluate-heldout.ts";
import { type Encoder, loadEncoder, VectorCache } from "./sentence-encoder.ts";
import { calibrationCarried, carriedInTraining, Fold, linearPart, type Thresholded, trainingCarrier } from "./sentence-encoder-fold.ts";
import { isOwn, loadTrainingRows, type Row } from "./train.ts";

const judgedSources = (rows: Row[]) =>
  [...new Set(rows.filter((r) => !isOwn(r) && (r.category === "injection" || r.category === "benign")).map((r) => r.source))].sort();

/** What the script reads: the training rows, and the texts judged (a group name and its sets). */
interface Judged {
  name: string;
  /** The source left out to judge it, or null: judged by the models trained on every row. */
  leftOut: string | null;
  sets: [string, string[]][];
}

function judgedGroups(rows: Row[], only: string[] | undefined, kits: boolean, blind: boolean): Judged[] {
  const out: Judged[] = (only ?? judgedSources(rows)).map((s) => ({ name: s, leftOut: s, sets: sets(rows.filter((r) => r.source === s)) }));
  if (kits) {
    const kitRows = loadHeldOutRows();
    for (const half of ["tune", "held-out"] as const) {
      const of = kitRows.filter((r) => r.split === half);
      for (const source of [...new Set(of.map((r) => r.source))].sort())
        out.push({ name: `${source} (${half})`, leftOut: null, sets: sets(of.filter((r) => r.source === source)) });
    }
  }
  if (blind) {
    const blindRows = loadBlindRows();
    for (const source of [...new Set(blindRows.map((r) => r.source))].sort())
      out.push({ name: `${source} (blind)`, leftOut: null, sets: sets(blindRows.filter((r) => r.source === source)) });
  }
  return out;
}

/** Every text whose vector the evaluation reads. */
function textsRead(rows: Row[], groups: Judged[]): string[] {
  const texts = new Set<string>();
  for (const r of rows) {
    texts.add(r.text);
    if (carriedInTraining(r) || calibrationCarried(r)) texts.add(trainingCarrier(r));
  }
  for (const g of groups) for (const [, ts] of g.sets) for (const t of ts) texts.add(t);
  return [...texts];
}

export interface Counts {
  rows: number;
  scanner: number;
  linear: number;
  encoder: number;
  rulesOrEncoder: number;
  stacked: number;
  rulesOrStacked: number;
  cascade: number;
  /** Reached (a)'s and (b)'s flag thresholds (3% of unseen benign weight above, as train.ts's FLAG_RATE): how they rank, below the block line. */
  encoderFlag: number;
  stackedFlag: number;
  /** Texts the linear model puts between its flag and block thresholds: what the cascade embeds. */
  band: number;
}

const COLUMNS: [keyof Counts, string][] = [
  ["scanner", "scanner today"],
  ["linear", "linear alone"],
  ["encoder", "(a) encoder alone"],
  ["rulesOrEncoder", "rules or (a)"],
  ["stacked", "(b) encoder + linear logit"],
  ["rulesOrStacked", "rules or (b)"],
  ["cascade", "(c) cascade"],
  ["encoderFlag", "(a) at 3%"],
  ["stackedFlag", "(b) at 3%"],
  ["band", "in the band"],
];

const empty = (): Counts => ({
  rows: 0,
  scanner: 0,
  linear: 0,
  encoder: 0,
  rulesOrEncoder: 0,
  stacked: 0,
  rulesOrStacked: 0,
  cascade: 0,
  encoderFlag: 0,
  stackedFlag: 0,
  band: 0,
});

function judge(fold: Fold, a: Thresholded, b: Thresholded, texts: string[]): Counts {
  const c: Counts = { ...empty(), rows: texts.length };
  for (const t of texts) {
    const rules = confidence(t, null) === "high";
    const scanner = confidence(t, fold.lin) === "high";
    const logit = windowLogit(fold.lin, t);
    const encoderScore = fold.score(a.model, t, false);
    const stackedScore = fold.score(b.model, t, true, logit);
    const encoder = encoderScore >= a.block;
    const stacked = stackedScore >= b.block;
    c.encoderFlag += +(encoderScore >= a.flag);
    c.stackedFlag += +(stackedScore >= b.flag);
    const band = logit >= fold.lin.flagThreshold && logit < fold.lin.threshold;
    c.scanner += +scanner;
    c.linear += +(classifierConfidence(fold.lin, t) === "high");
    c.encoder += +encoder;
    c.rulesOrEncoder += +(rules || encoder);
    c.stacked += +stacked;
    c.rulesOrStacked += +(rules || stacked);
    c.cascade += +(scanner || (band && stacked));
    c.band += +band;
  }
  return c;
}

const add = (into: Counts, c: Counts) => {
  for (const k of Object.keys(c) as (keyof Counts)[]) into[k] += c[k];
};
const pct = (n: number, d: number) => `${n} (${((100 * n) / Math.max(1, d)).toFixed(1)}%)`;

function table(lines: [string, string, Counts][]): string {
  const out = [`| group | set | rows | ${COLUMNS.map(([, h]) => h).join(" | ")} |`, `|---|---|---|${COLUMNS.map(() => "---|").join("")}`];
  for (const [name, set, c] of lines) out.push(`| ${name} | ${set} | ${c.rows} | ${COLUMNS.map(([k]) => pct(c[k], c.rows)).join(" | ")} |`);
  return out.join("\n");
}

/** The set a carried text counts under in the totals. */
const summed = (set: string) =>
  set.startsWith("injection in") ? "injection in carriers" : set.startsWith("benign in") ? "benign in carriers" : set;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      packs: { type: "string", default: "/tmp/use" },
      from: { type: "string", default: "/tmp/use/run/node_modules" },
      only: { type: "string" },
      windows: { type: "boolean", default: false },
      fill: { type: "boolean", default: false },
      linear: { type: "boolean", default: false },
      kits: { type: "boolean", default: false },
      blind: { type: "boolean", default: false },
    },
  });
  const rows = loadTrainingRows();
  const groups = judgedGroups(
    rows,
    values.only?.split(",").filter((s) => s !== ""),
    values.kits as boolean,
    values.blind as boolean,
  );
  if (values.linear) {
    // The folds' linear parts alone (no vector read), cached for the run that reads them.
    for (const leftOut of new Set(groups.map((g) => g.leftOut)))
      linearPart(
        leftOut,
        rows.filter((r) => r.source !== leftOut),
      );
    return;
  }
  const texts = textsRead(rows, groups).sort((x, y) => x.length - y.length);
  const cache = new VectorCache();
  let encoder: Encoder | null = null;
  try {
    if (values.windows) throw new Error("windows need the tokenizer");
    await cache.vectorsOf(null, texts);
  } catch {
    encoder = await loadEncoder(values.packs as string, values.from as string);
  }
  const vectors = new Map<string, Float32Array>();
  for (let at = 0; at < texts.length; at += 512) {
    const chunk = texts.slice(at, at + 512);
    (await cache.vectorsOf(encoder, chunk)).forEach((v, i) => vectors.set(chunk[i] as string, v));
    if (values.fill) console.log(`${Math.min(texts.length, at + 512)}/${texts.length} texts embedded or cached`);
  }
  const vector = (t: string) => vectors.get(t) as Float32Array;
  let windows: ((t: string) => Float32Array[]) | null = null;
  if (values.windows) {
    // Windows of the texts scored: the calibration's benign rows, bare and carried, and the judged texts.
    const calibration = rows
      .filter((r) => !isOwn(r) && r.category === "benign")
      .flatMap((r) => (calibrationCarried(r) ? [r.text, trainingCarrier(r)] : [r.text]));
    const scored = [...new Set([...calibration, ...groups.flatMap((g) => g.sets.flatMap(([, ts]) => ts))])].sort(
      (x, y) => x.length - y.length,
    );
    const byText = new Map<string, Float32Array[]>();
    for (let at = 0; at < scored.length; at += 256) {
      const chunk = scored.slice(at, at + 256);
      (await cache.windowsOf(encoder as Encoder, chunk)).forEach((w, i) => byText.set(chunk[i] as string, w));
      if (values.fill) console.log(`${Math.min(scored.length, at + 256)}/${scored.length} texts' windows embedded or cached`);
    }
    windows = (t) => byText.get(t) as Float32Array[];
  }
  if (values.fill) return;

  const lines: [string, string, Counts][] = [];
  const totals = new Map<string, Counts>();
  const byFold = new Map<string | null, Judged[]>();
  for (const g of groups) byFold.set(g.leftOut, [...(byFold.get(g.leftOut) ?? []), g]);
  for (const [leftOut, judged] of byFold) {
    const fold = new Fold(
      leftOut,
      rows.filter((r) => r.source !== leftOut),
      vector,
      windows,
    );
    const a = fold.thresholded(false);
    const b = fold.thresholded(true);
    console.log(
      `left out ${leftOut ?? "nothing"}: linear block ${fold.lin.threshold.toFixed(2)} flag ${fold.lin.flagThreshold.toFixed(2)}; (a) block ${a.block.toFixed(2)}; (b) block ${b.block.toFixed(2)}; flags (a) ${a.flag.toFixed(2)} (b) ${b.flag.toFixed(2)}`,
    );
    for (const g of judged)
      for (const [set, ts] of g.sets) {
        const c = judge(fold, a, b, ts);
        const total = leftOut === null ? g.name.replace(/^.*\((.*)\)$/, "$1") : "all held out";
        for (const s of new Set([set, summed(set)])) {
          const t = totals.get(`${total}\t${s}`) ?? empty();
          add(t, c);
          totals.set(`${total}\t${s}`, t);
        }
        if (!set.includes(" in ") && !set.startsWith("injection, ")) lines.push([g.name, set, c]);
      }
  }
  const totalLines = [...totals]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([k, c]) => [...(k.split("\t") as [string, string]), c] as [string, string, Counts]);
  // The blind source's rows are counted in its totals only, never per row or per carrier kind.
  console.log(`${table(lines)}\n\nTotals:\n\n${table(totalLines)}`);
}

if (import.meta.main) await main();
