/** The regression guard's arithmetic (bench/guard.ts): its base revision's file, and a verdict from paired rounds. */
import { median, percentile } from "./stats.ts";

/** The base revision: the file's first line that is not a comment or blank. */
export function readGuardBase(text: string): string {
  const rev = text
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "" && !l.startsWith("#"));
  if (!rev || !/^[0-9a-f]{7,40}$/.test(rev))
    throw new Error("bench/guard-base names no revision (one hexadecimal commit id on a line of its own, # for comments)");
  return rev;
}

export interface PairedRounds {
  /** CPU µs per call of each base round and each change round, in the order they ran. */
  base: number[];
  change: number[];
}

export interface Verdict {
  base: number;
  change: number;
  /** The median of the pairs' ratios (change over base), with its quartiles. */
  ratio: number;
  low: number;
  high: number;
  pairs: number;
  over: boolean;
}

/**
 * Each pair's ratio is taken within the pair (two rounds a second apart, under the same
 * load), and the verdict is their median: a disturbed round moves one ratio, not the verdict.
 */
export function verdict(rounds: PairedRounds, margin: number): Verdict {
  const n = Math.min(rounds.base.length, rounds.change.length);
  if (n === 0) throw new Error("no paired rounds to judge");
  const ratios = Array.from({ length: n }, (_, i) => (rounds.change[i] as number) / (rounds.base[i] as number));
  const ratio = median(ratios);
  return {
    base: median(rounds.base),
    change: median(rounds.change),
    ratio,
    low: percentile(ratios, 25),
    high: percentile(ratios, 75),
    pairs: n,
    over: ratio > 1 + margin,
  };
}
