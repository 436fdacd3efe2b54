/**
 * One fold of the sentence-encoder measurement (scanner/sentence-encoder-evaluate.ts): the
 * training rows without the left-out source, the linear classifier trained on them as shipped
 * (trainFinal) with an out-of-source logit for every training text, and logistic regressions
 * on the encoder's vectors thresholded by train.ts's rule.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type LinearModel, windowLogit } from "../src/pipeline/scan/classifier.ts";
import { CARRIER_KINDS, type CarrierKind, carry, random, TEMPLATES } from "./carriers.ts";
import { type DenseExample, type DenseModel, denseLogit, fitLogistic, weightedQuantile } from "./dense-logistic.ts";
import { cacheKey } from "./sentence-encoder.ts";
import { CARRIED_MAX, isOwn, type Row, train, trainFinal } from "./train.ts";

/**
 * Each row's one training carrier, drawn from a generator seeded by its id rather than by its
 * place among a fold's rows (as train.ts draws them), so that every fold reads the same texts
 * and each is embedded once.
 */
export function trainingCarrier(r: Row): string {
  const next = random(Bun.hash.crc32(r.id));
  return carry(CARRIER_KINDS[Math.floor(next() * CARRIER_KINDS.length)] as CarrierKind, r.text, TEMPLATES.train, next);
}
const carriable = (r: Row) => (r.category === "injection" || r.category === "benign") && r.text.length <= CARRIED_MAX;
/** Every attack and half the benign rows (by id) inside a carrier, as train.ts trains. */
export const carriedInTraining = (r: Row) => carriable(r) && (r.category === "injection" || Bun.hash.crc32(`${r.id}#half`) % 2 === 0);
/** Public benign rows are scored carried too when the thresholds are calibrated. */
export const calibrationCarried = (r: Row) => carriable(r) && r.category === "benign" && !isOwn(r);

export interface Thresholded {
  model: DenseModel;
  block: number;
  flag: number;
}

/** A fold's linear part as cached on disk: the quantized model and each training text's out-of-source logit, by text hash. */
interface LinearPart {
  weights: string;
  scale: number;
  bias: number;
  threshold: number;
  flagThreshold: number;
  logits: Record<string, number>;
}

/**
 * The linear part of a fold (about fifteen linear models), cached under the vector cache's
 * directory by the left-out source: numbers only, keyed by text hashes.
 */
export function linearPart(leftOut: string | null, rows: Row[]): LinearPart {
  const file = join(process.env.USE_CACHE ?? "/tmp/use-cache", `fold-${cacheKey(`${leftOut}`).slice(0, 16)}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as LinearPart;
  const inner = new Map<string, LinearModel>();
  const lin = trainFinal(rows, (source, m) => inner.set(source, m));
  // A logit for every training text from a model that never saw its source: the calibration
  // models cover the benign sources; the attack-only sources and the rest (the project's rows,
  // secret and personal-data sources) in halves by id get a model each.
  const group = (r: Row) =>
    inner.has(r.source) || (!isOwn(r) && r.category === "injection") ? r.source : `rest-${Bun.hash.crc32(`${r.id}#rest`) % 2}`;
  for (const g of new Set(rows.map(group))) if (!inner.has(g)) inner.set(g, train(rows.filter((r) => group(r) !== g)));
  const logits: Record<string, number> = {};
  for (const r of rows) {
    const m = inner.get(group(r)) as LinearModel;
    logits[cacheKey(r.text)] = windowLogit(m, r.text);
    if (carriedInTraining(r) || calibrationCarried(r)) logits[cacheKey(trainingCarrier(r))] = windowLogit(m, trainingCarrier(r));
  }
  const part = {
    weights: Buffer.from((lin.weights as Int8Array).buffer).toString("base64"),
    scale: lin.scale,
    bias: lin.bias,
    threshold: lin.threshold,
    flagThreshold: lin.flagThreshold,
    logits,
  };
  writeFileSync(file, JSON.stringify(part));
  return part;
}

/** What one fold needs: the linear model, and each training text's vector and out-of-source linear logit. */
export class Fold {
  readonly lin: LinearModel;
  private readonly logits: Record<string, number>;

  constructor(
    leftOut: string | null,
    readonly rows: Row[],
    private readonly vector: (text: string) => Float32Array,
    /** Each 128-token window's vector, when texts are scored by their highest window. */
    readonly windows: ((text: string) => Float32Array[]) | null,
  ) {
    const part = linearPart(leftOut, rows);
    const bytes = Buffer.from(part.weights, "base64");
    this.lin = { ...part, weights: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
    this.logits = part.logits;
  }

  features(text: string, stacked: boolean, logit?: number): Float32Array {
    const v = this.vector(text);
    if (!stacked) return v;
    const x = new Float32Array(v.length + 1);
    x.set(v);
    x[v.length] = logit ?? (this.logits[cacheKey(text)] as number);
    return x;
  }

  /** A dense model's logit for a text: its first window's, or with windows its highest window's. */
  score(model: DenseModel, text: string, stacked: boolean, logit?: number): number {
    if (this.windows === null) return denseLogit(model, this.features(text, stacked, logit));
    let best = Number.NEGATIVE_INFINITY;
    for (const w of this.windows(text)) {
      const x = stacked ? Float32Array.from([...w, logit ?? (this.logits[cacheKey(text)] as number)]) : w;
      best = Math.max(best, denseLogit(model, x));
    }
    return best;
  }

  private examples(rows: Row[], stacked: boolean): DenseExample[] {
    const out: DenseExample[] = [];
    for (const r of rows) {
      const label = r.category === "injection" ? 1 : 0;
      out.push({ x: this.features(r.text, stacked), label, weight: 1 });
      if (carriedInTraining(r)) out.push({ x: this.features(trainingCarrier(r), stacked), label, weight: 0.5 });
    }
    return out;
  }

  /** A dense model on every row of the fold, and its block threshold by train.ts's rule. */
  thresholded(stacked: boolean): Thresholded {
    const model = fitLogistic(this.examples(this.rows, stacked), FIT);
    const unseen: { score: number; weight: number }[] = [];
    for (const source of [...new Set(this.rows.filter((r) => !isOwn(r) && r.category === "benign").map((r) => r.source))].sort()) {
      const m = fitLogistic(
        this.examples(
          this.rows.filter((r) => r.source !== source),
          stacked,
        ),
        FIT,
      );
      const scores: number[] = [];
      for (const r of this.rows) {
        if (r.source !== source || r.category !== "benign") continue;
        scores.push(this.score(m, r.text, stacked));
        if (calibrationCarried(r)) scores.push(this.score(m, trainingCarrier(r), stacked));
      }
      for (const score of scores) unseen.push({ score, weight: 1 / scores.length });
    }
    const block = Math.max(weightedQuantile(unseen, BLOCK_RATE), 0);
    return { model, block, flag: Math.min(block, Math.max(weightedQuantile(unseen, FLAG_RATE), 0)) };
  }
}

/** The dense fits' L2 penalty and epochs (USE_L2, USE_EPOCHS): 0.01 as reported; 1e-3 and 0.1 tried too (docs/scanner.md). */
const FIT = { l2: Number(process.env.USE_L2 ?? 0.01), epochs: Number(process.env.USE_EPOCHS ?? 20) };

/** train.ts's BLOCK_RATE: 0.1% of the unseen benign weight above the block threshold. */
const BLOCK_RATE = 0.001;
const FLAG_RATE = 0.03;
