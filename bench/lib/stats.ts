/** Small statistics for benchmark samples: percentiles and medians. */

/** The p-th percentile (0-100) of unsorted samples, nearest rank. */
export function percentile(samples: ArrayLike<number>, p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}
