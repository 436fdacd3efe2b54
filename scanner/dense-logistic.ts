/**
 * Logistic regression on dense vectors (sentence-encoder features), and the block-rate
 * threshold rule of scanner/train.ts on weighted benign scores: the two pure parts of the
 * sentence-encoder measurement (scanner/sentence-encoder-evaluate.ts).
 */
import { random } from "./carriers.ts";

export interface DenseModel {
  /** Each feature's training mean and 1/std: the vectors' components are small and unequal in spread. */
  mean: Float64Array;
  inverseStd: Float64Array;
  weights: Float64Array;
  bias: number;
}

export interface DenseExample {
  x: Float32Array;
  label: 0 | 1;
  /** How much the example counts (a carried row half a bare one, as in train.ts). */
  weight: number;
}

export interface FitOptions {
  epochs?: number;
  rate?: number;
  l2?: number;
  seed?: number;
}

/** Stochastic gradient descent on standardized features, the classes weighted to count equally; seeded, so deterministic. */
export function fitLogistic(data: DenseExample[], options: FitOptions = {}): DenseModel {
  const { epochs = 20, rate = 0.05, l2 = 1e-3, seed = 7 } = options;
  const d = data[0]?.x.length ?? 0;
  const mean = new Float64Array(d);
  const inverseStd = new Float64Array(d);
  for (const { x } of data) for (let k = 0; k < d; k++) mean[k] = (mean[k] as number) + (x[k] as number) / data.length;
  for (const { x } of data)
    for (let k = 0; k < d; k++) inverseStd[k] = (inverseStd[k] as number) + ((x[k] as number) - (mean[k] as number)) ** 2 / data.length;
  for (let k = 0; k < d; k++) inverseStd[k] = 1 / (Math.sqrt(inverseStd[k] as number) || 1);
  const positives = data.filter((e) => e.label === 1).length;
  const classWeight = [data.length / (2 * Math.max(1, data.length - positives)), data.length / (2 * Math.max(1, positives))];
  const weights = new Float64Array(d);
  let bias = 0;
  const z = new Float64Array(d);
  const next = random(seed);
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const step = rate / (1 + epoch * 0.2);
    for (const idx of order) {
      const { x, label, weight } = data[idx] as DenseExample;
      let s = bias;
      for (let k = 0; k < d; k++) {
        z[k] = ((x[k] as number) - (mean[k] as number)) * (inverseStd[k] as number);
        s += (weights[k] as number) * (z[k] as number);
      }
      const g = (1 / (1 + Math.exp(-s)) - label) * (classWeight[label] as number) * weight * step;
      const decay = 1 - step * l2;
      for (let k = 0; k < d; k++) weights[k] = (weights[k] as number) * decay - g * (z[k] as number);
      bias -= g;
    }
  }
  return { mean, inverseStd, weights, bias };
}

/** The model's logit for `x`: at 0 even odds. */
export function denseLogit(m: DenseModel, x: Float32Array): number {
  let s = m.bias;
  for (let k = 0; k < m.weights.length; k++)
    s += (m.weights[k] as number) * ((x[k] as number) - (m.mean[k] as number)) * (m.inverseStd[k] as number);
  return s;
}

/**
 * The score above which `rate` of the weight lies (train.ts's withThresholds rule): the
 * scores of benign text the model never saw, each source's rows weighing 1 in all.
 */
export function weightedQuantile(scores: { score: number; weight: number }[], rate: number): number {
  const sorted = [...scores].sort((a, b) => b.score - a.score);
  const total = sorted.reduce((sum, u) => sum + u.weight, 0);
  let seen = 0;
  for (const u of sorted) if ((seen += u.weight) > rate * total) return u.score;
  return sorted.at(-1)?.score ?? 0;
}
