/**
 * The trained injection classifier: logistic regression over hashed n-grams
 * (classifier-features.ts), its weights trained by scanner/train.ts and embedded in
 * classifier-weights.ts (a module, so the compiled binary carries them). A text is
 * scored window by window and takes its highest window's score: an attack buried in
 * a long document still counts in full. Each window counts its distinct features once,
 * so neither length nor repetition raises a score.
 */
import { distinctFeatures, featureHashes, STRIDE, WINDOW } from "./classifier-features.ts";
import { BIAS, SCALE, THRESHOLD, WEIGHTS_BASE64 } from "./classifier-weights.ts";

export interface LinearModel {
  /** One weight per hash bucket, times `scale`. */
  weights: Int8Array | Float32Array;
  scale: number;
  bias: number;
  /** The logit at or above which a text counts as an injection. */
  threshold: number;
}

/** Reused between calls: scanning is synchronous, one text at a time. */
let scratch: Uint32Array = new Uint32Array(4096);
const present = new Uint32Array(WINDOW);

/**
 * The highest window logit of `text` (windows of WINDOW features, half overlapping).
 * A window's logit is bias + scale * (sum of its distinct features' weights) /
 * sqrt(distinct features): repeating text adds no features, so it cannot add score.
 */
export function windowLogit(model: LinearModel, text: string): number {
  const { hashes, length } = featureHashes(text, scratch);
  scratch = hashes;
  const w = model.weights;
  if (length === 0) return model.bias;
  let best = Number.NEGATIVE_INFINITY;
  for (let start = 0; ; start += STRIDE) {
    const end = Math.min(length, start + WINDOW);
    const n = distinctFeatures(hashes, start, end, present);
    let sum = 0;
    for (let k = 0; k < n; k++) sum += w[present[k] as number] as number;
    const logit = model.bias + (model.scale * sum) / Math.sqrt(n);
    if (logit > best) best = logit;
    if (end === length) break;
  }
  return best;
}

function embedded(): LinearModel {
  const bytes = Buffer.from(WEIGHTS_BASE64, "base64");
  return { weights: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length), scale: SCALE, bias: BIAS, threshold: THRESHOLD };
}

export const INJECTION_MODEL: LinearModel = embedded();

/** 1 when `model` judges `text` an injection attempt, else 0. */
export const classifierWeight = (model: LinearModel, text: string): number => (windowLogit(model, text) >= model.threshold ? 1 : 0);
