/**
 * Trains the injection classifier and writes its weights module
 * (src/pipeline/scan/classifier-weights.ts). Deterministic: the same data gives the
 * same bytes.
 *
 *   bun scanner/train.ts      train on every row, write the weights and the two thresholds
 *   bun scanner/evaluate.ts   held-out figures, each source left out in turn
 *
 * Data: scanner/data/train.jsonl and train-v2.jsonl (sources and licenses in
 * scanner/data/README.md), the project's corpus test/fixtures/scan-corpus.jsonl,
 * scanner/discussions.jsonl and generated rows (generated-rows.ts, generated-multilingual.ts,
 * generated-triggers.ts); each attack and
 * half the benign rows again inside a carrier (carriers.ts), and long documents built
 * from them (long-documents.ts). Injection rows are the positives;
 * benign rows the negatives. Secret and PII rows are negatives too: a pasted key is no
 * attack, and they are scanned by rules.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distinctFeatures, featureHashes, HASH_SIZE, STRIDE, WINDOW } from "../src/pipeline/scan/classifier-features.ts";
import { type LinearModel, windowLogit } from "../src/pipeline/scan/classifier.ts";
import { CARRIER_KINDS, type CarrierKind, carry, random, TEMPLATES } from "./carriers.ts";
import { generatedMultilingualRows } from "./generated-multilingual.ts";
import { generatedRows } from "./generated-rows.ts";
import { generatedTriggerRows } from "./generated-triggers.ts";
import { longDocuments } from "./long-documents.ts";

export interface Row {
  id: string;
  source: string;
  category: "injection" | "benign" | "secret" | "pii";
  text: string;
}

interface Example {
  /** The window's distinct feature buckets, each of value `value` (1/sqrt(count)). */
  features: Uint32Array;
  value: number;
  label: 0 | 1;
  /** How much the example counts: a long document built from rows counts less than a row. */
  weight: number;
}

const jsonl = (path: string) =>
  readFileSync(join(import.meta.dir, path), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

/**
 * The public rows (evaluated, held out by source) and the project's own rows (trained
 * on, never evaluated here): its hand corpus, and benign questions that quote attack
 * phrases to discuss them (scanner/discussions.jsonl), rare in the public rows.
 */
export function loadRows(): Row[] {
  const own = jsonl("../test/fixtures/scan-corpus.jsonl").map((c: { label: Row["category"]; text: string; role?: string }, i: number) => ({
    id: `own-${i}`,
    source: OWN_SOURCE,
    // An attack in the owner's system prompt is not judged; as training text it is still an attack.
    category: c.label,
    text: c.text,
  }));
  const discussions = jsonl("discussions.jsonl").map((c: { label: Row["category"]; text: string }, i: number) => ({
    id: `discussion-${i}`,
    source: "project/discussions",
    category: c.label,
    text: c.text,
  }));
  return [...(jsonl("data/train.jsonl") as Row[]), ...own, ...discussions];
}

/**
 * What the injection classifier trains on: the rows above, the second and third public
 * pools (scanner/data/train-v2.jsonl, train-v3.jsonl: new sources, README there) and the
 * generated rows (generated-rows.ts, generated-multilingual.ts). loadRows() stays the first pool, which the secret and personal
 * data figures are reported on. Never scanner/data/blind.jsonl: those rows are judged by
 * evaluate-blind.ts only, so that figure stays one on text the model never saw.
 */
export function loadTrainingRows(): Row[] {
  return [
    ...loadRows(),
    ...(jsonl("data/train-v2.jsonl") as Row[]),
    ...(jsonl("data/train-v3.jsonl") as Row[]),
    ...generatedRows(),
    ...generatedMultilingualRows(),
    ...generatedTriggerRows(),
  ];
}

export const OWN_SOURCE = "project/scan-corpus";
/** The project's own rows: trained on, never held out. */
export const isOwn = (r: Row) => r.source.startsWith("project/");

/**
 * A long row gives its first windows only: a long jailbreak's later windows are
 * often plain story, and labelling them attacks teaches the model that stories are.
 */
const WINDOWS_PER_ROW = 2;

/** A window's features as the scorer sees them: each distinct hash once, 1/sqrt(distinct) each. */
function windowFeatures(hashes: Uint32Array, start: number, end: number, present: Uint32Array): { features: Uint32Array; value: number } {
  const n = distinctFeatures(hashes, start, end, present);
  return { features: present.slice(0, n), value: 1 / Math.sqrt(Math.max(1, n)) };
}

/** Every row's first windows, and the long documents built from the rows (scanner/long-documents.ts). */
function examples(rows: Row[]): Example[] {
  const out: Example[] = [];
  let scratch: Uint32Array = new Uint32Array(4096);
  const present = new Uint32Array(WINDOW);
  for (const row of rows) {
    const { hashes, length } = featureHashes(row.text, scratch);
    scratch = hashes;
    for (let w = 0, s = 0; w < WINDOWS_PER_ROW && (s === 0 || s + STRIDE < length); w++, s += STRIDE) {
      const e = Math.min(length, s + WINDOW);
      out.push({ ...windowFeatures(hashes, s, e, present), label: row.category === "injection" ? 1 : 0, weight: 1 });
      if (e === length) break;
    }
  }
  // Each attack once more inside a carrier (e-mail, web page, code review, tool result,
  // document), and as many benign rows inside the same carriers, so the wrapping is no signal.
  const next = random(13);
  for (const row of rows) {
    if (row.category !== "injection" && row.category !== "benign") continue;
    if (row.text.length > CARRIED_MAX || (row.category === "benign" && next() >= BENIGN_CARRIED_SHARE)) continue;
    const text = carry(CARRIER_KINDS[Math.floor(next() * CARRIER_KINDS.length)] as CarrierKind, row.text, TEMPLATES.train, next);
    const { hashes, length } = featureHashes(text, scratch);
    scratch = hashes;
    const attackEnd = Math.min(length, WINDOW);
    out.push({ ...windowFeatures(hashes, 0, attackEnd, present), label: row.category === "injection" ? 1 : 0, weight: CARRIED_WEIGHT });
  }
  for (const doc of longDocuments(rows, random(11))) {
    const { hashes } = featureHashes(doc.text, scratch);
    scratch = hashes;
    out.push({ ...windowFeatures(hashes, doc.start, doc.end, present), label: doc.label, weight: LONG_DOCUMENT_WEIGHT });
  }
  return out;
}

/** Rows longer than this are documents already, not payloads to wrap. */
export const CARRIED_MAX = 1500;
/** The share of benign rows also wrapped in a carrier. */
const BENIGN_CARRIED_SHARE = Number(process.env.BENIGN_CARRIED ?? 0.5);
/**
 * A carried row counts half a bare one. At 1, left out by source, injections in carriers
 * blocked 1917 -> 1930 of 2,700 and benign rows in carriers 9 -> 6 of 2,595, but the
 * project's ordinary trigger-word sentences (test/fixtures/ordinary-triggers.ts, on main
 * after this was tried) inside carriers were blocked 44 -> 72 of 1,100: kept at 0.5.
 */
const CARRIED_WEIGHT = Number(process.env.CARRIED_WEIGHT ?? 0.5);

const EPOCHS = Number(process.env.EPOCHS ?? 30);
const RATE = Number(process.env.RATE ?? 0.5);
const L2 = Number(process.env.L2 ?? 1e-4);
const MARGIN = Number(process.env.MARGIN ?? 0);
/**
 * A long document built from rows counts a fifth of a row: enough that a full window of
 * benign prose scores low and an attack buried in one scores high, little enough that
 * the short rows (what the held-out figures judge) still shape the model. Chosen from
 * 0.05, 0.1, 0.2, 0.25, 0.3, 0.5 and 1 by the held-out figures (git history of this line; docs/history/scanner-log.md has the rounds).
 */
const LONG_DOCUMENT_WEIGHT = 0.2;

/** Logistic regression by stochastic gradient descent, the classes weighted to count equally. */
export function train(rows: Row[]): LinearModel {
  const data = examples(rows);
  const positives = data.filter((d) => d.label === 1).length;
  const classWeight = [data.length / (2 * (data.length - positives)), data.length / (2 * positives)];
  const weights = new Float32Array(HASH_SIZE);
  let bias = 0;
  const next = random(7);
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const rate = RATE / (1 + epoch * 0.2);
    for (const idx of order) {
      const { features, value, label, weight } = data[idx] as Example;
      let z = 0;
      for (const h of features) z += weights[h] as number;
      const p = 1 / (1 + Math.exp(-(bias + z * value)));
      const g = (p - label) * (classWeight[label] as number) * weight * rate;
      const decay = 1 - rate * L2;
      const step = g * value;
      for (const h of features) weights[h] = (weights[h] as number) * decay - step;
      bias -= g;
    }
  }
  return { weights, scale: 1, bias, threshold: 0, flagThreshold: 0 };
}

/**
 * The two thresholds, from benign text the model has not seen. A model scores its own
 * training rows lower than new text, so a threshold set on them blocked far more of a
 * new source's ordinary prompts than it promised. Instead each public source with benign
 * rows is left out in turn, a model is trained without it, and its benign rows are
 * scored by that model, bare and inside a training carrier: scores as a new source gets
 * them. Each source counts equally (950 easy API questions would otherwise set the
 * threshold for everyone; groups of sources made it swing with which sources shared a
 * group). The block threshold leaves BLOCK_RATE of that weight above it, the flag
 * threshold FLAG_RATE.
 */
export function withThresholds(model: LinearModel, rows: Row[], onFold?: (source: string, foldModel: LinearModel) => void): LinearModel {
  const sources = [...new Set(rows.filter((r) => !isOwn(r) && r.category === "benign").map((r) => r.source))].sort();
  const unseen: { score: number; weight: number }[] = [];
  const next = random(17);
  for (const source of sources) {
    const foldModel = train(rows.filter((r) => r.source !== source));
    onFold?.(source, foldModel);
    const scores: number[] = [];
    for (const r of rows) {
      if (r.source !== source || r.category !== "benign") continue;
      scores.push(windowLogit(foldModel, r.text));
      // The same row inside a carrier: benign prose around a request scores higher than the
      // request alone, and the thresholds must hold for carried text too (e-mails, documents).
      if (CALIBRATE_CARRIED && r.text.length <= CARRIED_MAX)
        scores.push(
          windowLogit(
            foldModel,
            carry(CARRIER_KINDS[Math.floor(next() * CARRIER_KINDS.length)] as CarrierKind, r.text, TEMPLATES.train, next),
          ),
        );
    }
    for (const score of scores) unseen.push({ score, weight: 1 / scores.length });
  }
  unseen.sort((a, b) => b.score - a.score);
  const total = unseen.reduce((sum, u) => sum + u.weight, 0);
  const above = (rate: number): number => {
    let seen = 0;
    for (const u of unseen) if ((seen += u.weight) > rate * total) return u.score;
    return 0;
  };
  const threshold = Math.max(above(BLOCK_RATE), 0) + MARGIN;
  return { ...model, threshold, flagThreshold: Math.min(threshold, Math.max(above(FLAG_RATE), FLAG_FLOOR)) };
}

/** Calibrate on each unseen benign row bare and inside a training carrier (see withThresholds). */
const CALIBRATE_CARRIED = (process.env.CALIBRATE_CARRIED ?? "1") === "1";
/**
 * Unseen benign weight above the block threshold: under the 0.5% the issue allows, for the
 * rules' share and for carriers unlike the calibration's. 0.1%: left out by source
 * (deepset, CyberSecEval, human-eval, gorilla), 0.3%, 0.2%, 0.15% and 0.1% blocked 19, 15,
 * 9 and 7 of 2,100 benign rows inside held-out carriers, and 786, 785, 785 and 785 of 1,100
 * carried injections (159 of 220 bare at every rate): near the threshold the classifier
 * adds almost no recall, and the tail of one benign source (human-eval's docstrings, a
 * planner prompt) sets the threshold a new source meets. Earlier, 0.3% -> 0.2% had cut
 * benign rows blocked inside held-out e-mails from 2.7% to 1.2% (docs/history/scanner-log.md).
 */
const BLOCK_RATE = Number(process.env.BLOCK_RATE ?? 0.001);
/** Unseen benign weight above the flag threshold (forwarded, counted, audited). */
const FLAG_RATE = Number(process.env.FLAG_RATE ?? 0.03);
/** A flag needs at least even odds from the model. */
const FLAG_FLOOR = 0;

/** Quantized to one signed byte a weight, a quarter of the size, the scores unchanged to two decimals. */
export function quantize(model: LinearModel): LinearModel {
  let max = 0;
  for (const w of model.weights) max = Math.max(max, Math.abs(w));
  const scale = max / 127;
  const q = new Int8Array(model.weights.length);
  for (let i = 0; i < q.length; i++) q[i] = Math.round((model.weights[i] as number) / scale);
  return { weights: q, scale, bias: model.bias, threshold: model.threshold, flagThreshold: model.flagThreshold };
}

function writeWeights(model: LinearModel): void {
  const bytes = Buffer.from((model.weights as Int8Array).buffer);
  const source = `// Generated by scanner/train.ts from scanner/data/train*.jsonl and the project's rows (sources
// and licenses in scanner/data/README.md). Do not edit: run \`bun scanner/train.ts\`.
/** ${HASH_SIZE} signed bytes, one weight per feature bucket, times SCALE. */
export const WEIGHTS_BASE64 =
  "${bytes.toString("base64")}";
export const SCALE = ${model.scale};
export const BIAS = ${model.bias};
/** The logit at or above which a text is an injection with high confidence (blocked). */
export const THRESHOLD = ${model.threshold};
/** The logit at or above which it is one with medium confidence (forwarded and flagged). */
export const FLAG_THRESHOLD = ${model.flagThreshold};
`;
  writeFileSync(join(import.meta.dir, "../src/pipeline/scan/classifier-weights.ts"), source);
}

/**
 * The production model: trained on every row, thresholded, quantized. `onFold` gets each
 * calibration model (trained without one benign source), for a caller that needs scores of
 * rows their model never saw (scanner/sentence-encoder-evaluate.ts).
 */
export function trainFinal(rows: Row[], onFold?: (source: string, foldModel: LinearModel) => void): LinearModel {
  return quantize(withThresholds(train(rows), rows, onFold));
}

if (import.meta.main) {
  const rows = loadTrainingRows();
  const model = trainFinal(rows);
  writeWeights(model);
  console.log(`wrote weights: bias ${model.bias.toFixed(3)}, block ${model.threshold.toFixed(3)}, flag ${model.flagThreshold.toFixed(3)}`);
}
