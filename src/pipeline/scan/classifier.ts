/**
 * The trained injection classifier: logistic regression over hashed n-grams
 * (classifier-features.ts), its weights trained by scanner/train.ts and embedded in
 * classifier-weights.ts (a module, so the compiled binary carries them). A text is
 * scored window by window and takes its highest window's score: an attack buried in
 * a long document still counts in full.
 */
import { featureHashes, STRIDE } from "./classifier-features.ts";
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

/** The highest window logit of `text` (windows of WINDOW features, half overlapping). */
export function windowLogit(model: LinearModel, text: string): number {
  const { hashes, length } = featureHashes(text, scratch);
  scratch = hashes;
  const w = model.weights;
  if (length === 0) return model.bias;
  // Sums per half-window block; a window is two neighbouring blocks.
  let best = Number.NEGATIVE_INFINITY;
  let previous = 0;
  let previousCount = 0;
  for (let start = 0; start < length; start += STRIDE) {
    const end = Math.min(length, start + STRIDE);
    let sum = 0;
    for (let k = start; k < end; k++) sum += w[hashes[k] as number] as number;
    const count = end - start;
    // The first block alone is a window only when the text is that short.
    if (start > 0 || end === length) {
      const total = start > 0 ? previous + sum : sum;
      const n = start > 0 ? previousCount + count : count;
      const logit = model.bias + (model.scale * total) / Math.sqrt(n);
      if (logit > best) best = logit;
    }
    previous = sum;
    previousCount = count;
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
