/**
 * The trained injection classifier: logistic regression over hashed n-grams
 * (classifier-features.ts), its weights trained by scanner/train.ts and embedded in
 * classifier-weights.ts (a module, so the compiled binary carries them). A text is
 * scored window by window and takes its highest window's score: an attack buried in
 * a long document still counts in full. Each window counts its distinct features once,
 * so neither length nor repetition raises a score.
 */
import { everyOverrideCorrected, everyOverrideDenied, everyOverrideNegated, everyRulesNounACompound } from "./classifier-negation.ts";
import { featureHashes, HASH_SIZE, STRIDE } from "./classifier-features.ts";
import { BIAS, FLAG_THRESHOLD, SCALE, THRESHOLD, WEIGHTS_BASE64 } from "./classifier-weights.ts";

export interface LinearModel {
  /** One weight per hash bucket, times `scale`. */
  weights: Int8Array | Float32Array;
  scale: number;
  bias: number;
  /** The logit at or above which a text is an injection with high confidence: blocked. */
  threshold: number;
  /** The logit at or above which it is one with medium confidence: forwarded and flagged. At most `threshold`. */
  flagThreshold: number;
}

/** Reused between calls: scanning is synchronous, one text at a time. */
let scratch: Uint32Array = new Uint32Array(4096);
/**
 * Per bucket, the last half-window block (counted across calls) that held it; 0 is no
 * block. One byte a bucket keeps the table as small as the weights' (both are read at
 * random, beside the rules' own tables); the numbers run out every 255 blocks, and
 * renumbering costs one fill and one block's writes.
 */
const lastBlock = new Uint8Array(HASH_SIZE);
let blockStamp = 0;

/** Makes room for more block numbers: the features of `hashes[from, to)` (the block just read, if any) become block 1, the rest no block. */
function renumberBlocks(hashes: Uint32Array, from: number, to: number): void {
  lastBlock.fill(0);
  for (let k = from; k < to; k++) lastBlock[hashes[k] as number] = 1;
  blockStamp = 1;
}

/** The touch pass's sum, kept so that the compiler keeps its loads. */
let touched = 0;
/** When the last text was scored (performance.now()), and the gap after which its tables are taken for out of the caches. */
let lastScored = Number.NEGATIVE_INFINITY;
const COLD_AFTER_MS = 1;

/**
 * Reads each feature's weight and block number once before the sums, when the last text
 * was scored a while ago. After a pause both 128 KB tables are out of the caches; loads
 * that nothing waits on are fetched many at a time, while in the sums each missing line
 * held up the store beside it. Both tables, or neither: touching one alone was slower than
 * not touching. Between texts scored back to back the tables stay in the caches, and the
 * pass would only add its reads.
 */
function touchTables(w: LinearModel["weights"], hashes: Uint32Array, length: number): void {
  const now = performance.now();
  const gap = now - lastScored;
  lastScored = now;
  if (gap < COLD_AFTER_MS) return;
  let sum = touched;
  for (let k = 0; k < length; k++) {
    const h = hashes[k] as number;
    sum += (lastBlock[h] as number) + (w[h] as number);
  }
  touched = sum;
}

/** How many features the last blockSum counted. */
let countedFeatures = 0;

/**
 * Stamps the features of `hashes[start, end)` with `block` and returns the sum of the
 * distinct ones not seen since `block - lag` (their number in countedFeatures): with
 * lag 0 all of the block's distinct features, with lag 1 those the block before lacked. Added as 0/1 flags, not behind branches: whether
 * a feature of varied prose was seen already is a coin toss the processor cannot
 * predict, and each wrong guess cost more than the arithmetic.
 */
function blockSum(w: LinearModel["weights"], hashes: Uint32Array, start: number, end: number, block: number, lag: number): number {
  let sum = 0;
  let count = 0;
  for (let k = start; k < end; k++) {
    const h = hashes[k] as number;
    const last = lastBlock[h] as number;
    lastBlock[h] = block;
    // 1 when last < block - lag.
    const flag = (last - block + lag) >>> 31;
    sum += (w[h] as number) * flag;
    count += flag;
  }
  countedFeatures = count;
  return sum;
}

/**
 * The highest window logit of `text`. A window (WINDOW features, half overlapping the
 * next) scores bias + scale * (sum of its distinct features' weights) / sqrt(distinct
 * features), as distinctFeatures defines them for training: repeating text adds no
 * feature, so it cannot add score. A window is two neighbouring half-window blocks, so
 * each feature is visited once: a block's distinct features that the block before it
 * lacked, added to that block's own distinct sum, give the window's. The first block
 * needs only its own sum, the last of several only what the one before lacked: one
 * flag a feature there (most of a short text), both in the blocks between.
 */
export function windowLogit(model: LinearModel, text: string): number {
  const { hashes, length } = featureHashes(text, scratch);
  scratch = hashes;
  const w = model.weights;
  if (length === 0) return model.bias;
  touchTables(w, hashes, length);
  let best = Number.NEGATIVE_INFINITY;
  let previousSum = 0;
  let previousCount = 0;
  for (let start = 0; start < length; start += STRIDE) {
    const end = Math.min(length, start + STRIDE);
    if (blockStamp === 0xff) renumberBlocks(hashes, Math.max(0, start - STRIDE), start);
    const block = ++blockStamp;
    // This block's distinct features: all of them, and those the block before lacked.
    let sum = 0;
    let count = 0;
    let newSum = 0;
    let newCount = 0;
    if (start === 0 || end === length) {
      if (start === 0) {
        sum = blockSum(w, hashes, start, end, block, 0);
        count = countedFeatures;
      } else {
        newSum = blockSum(w, hashes, start, end, block, 1);
        newCount = countedFeatures;
      }
    } else
      for (let k = start; k < end; k++) {
        const h = hashes[k] as number;
        const last = lastBlock[h] as number;
        lastBlock[h] = block;
        const weight = w[h] as number;
        const fresh = (last - block) >>> 31;
        const unseenBefore = (last - block + 1) >>> 31;
        sum += weight * fresh;
        count += fresh;
        newSum += weight * unseenBefore;
        newCount += unseenBefore;
      }
    // The first block alone is a window only when the text is that short (the block
    // before it belongs to another text).
    if (start > 0 || end === length) {
      const total = start > 0 ? previousSum + newSum : sum;
      const n = start > 0 ? previousCount + newCount : count;
      const logit = model.bias + (model.scale * total) / Math.sqrt(n);
      if (logit > best) best = logit;
    }
    previousSum = sum;
    previousCount = count;
  }
  return best;
}

function embedded(): LinearModel {
  const bytes = Buffer.from(WEIGHTS_BASE64, "base64");
  return {
    weights: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    scale: SCALE,
    bias: BIAS,
    threshold: THRESHOLD,
    flagThreshold: FLAG_THRESHOLD,
  };
}

export const INJECTION_MODEL: LinearModel = embedded();

/** 1 when `model` judges `text` an injection attempt, else 0. */
export const classifierWeight = (model: LinearModel, text: string): number => (windowLogit(model, text) >= model.threshold ? 1 : 0);

export type InjectionConfidence = "high" | "medium" | null;

/** How sure `model` is that `text` is an injection: at the block threshold high, at the flag threshold medium. */
export function classifierConfidence(model: LinearModel, text: string): InjectionConfidence {
  const logit = windowLogit(model, text);
  const level: InjectionConfidence = logit >= model.threshold ? "high" : logit >= model.flagThreshold ? "medium" : null;
  if (level === null) return level;
  // Told of as done or not done ("I didn't ignore your previous instructions, I just ran out of time"): no order at all.
  if (everyOverrideDenied(text)) return null;
  // Every override negated ("don't ignore the previous instructions"), followed by a correction of the writer's own text
  // ("olvida las instrucciones anteriores: ahora el examen es el viernes"), or the rules named only as a thing ("previous
  // instructions cache cleared"): the n-grams read it as the attack; a level less.
  if (everyOverrideNegated(text) || everyOverrideCorrected(text) || everyRulesNounACompound(text))
    return level === "high" ? "medium" : null;
  return level;
}
