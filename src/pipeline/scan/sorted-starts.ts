/** Bisection over spans sorted by start, shared by the readings that must not compare every span with every other. */

/** The index of the first span (sorted by start) that starts at `at` or later. */
export function firstStartingFrom(sorted: readonly { start: number }[], at: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as { start: number }).start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
