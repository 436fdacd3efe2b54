/**
 * One micro-benchmark run against a base revision and this tree, one fresh process each,
 * base then tree, round after round: alternating spreads the shared machine's drift over
 * both sides, and a fresh process per round keeps each side's heap from growing.
 */
import { inFreshProcess } from "./fresh-process.ts";
import { exportRevision } from "./revision.ts";

export interface AlternatingRounds<T> {
  base: T[];
  tree: T[];
}

export async function alternatingRevisions<T>(
  base: string,
  rounds: number,
  module: string,
  exported: string,
  args: unknown[],
): Promise<AlternatingRounds<T>> {
  const revision = await exportRevision(base, { harness: true });
  try {
    const sides: AlternatingRounds<T> = { base: [], tree: [] };
    for (let r = 0; r < rounds; r++) {
      sides.base.push(await inFreshProcess<T>(module, exported, args, revision.dir));
      sides.tree.push(await inFreshProcess<T>(module, exported, args));
    }
    return sides;
  } finally {
    revision.remove();
  }
}
