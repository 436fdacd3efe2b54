/**
 * What one call allocates, by type: `bun bench/lib/call-allocations.ts [SCENARIO] [CALLS]`
 * warms the in-process gateway, then, five times, takes a full collection, runs CALLS
 * calls (500: fewer than an eden collection's worth, so nothing allocated is swept
 * before it is counted) and counts the cells the heap then holds by type; the growth
 * over the calls, per call (the median of the five), is what a call allocates. It
 * counts cells, not bytes (a string's characters and an object's out-of-line
 * properties are not cells), and the harness's own Request and canned answer are in
 * it: compare revisions, not totals.
 */
import { heapStats } from "bun:jsc";
import { openInProcess } from "./in-process.ts";

const p = await openInProcess(process.argv[2] ?? "chat-1k-50");
const calls = Number(process.argv[3] ?? 500);
const rounds = 5;
const run = async (n: number) => {
  let left = n;
  await Promise.all(
    Array.from({ length: p.scenario.connections }, async () => {
      while (left-- > 0) await p.gateway();
    }),
  );
};
await run(20_000);
// Per type, the median of the rounds: a round in which a collection ran anyway (and swept
// what it counted) reads low, and is outvoted.
const grown: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++) {
  Bun.gc(true);
  const before = heapStats().objectTypeCounts;
  await run(calls);
  const after = heapStats().objectTypeCounts;
  for (const [type, n] of Object.entries(after)) (grown[type] ??= []).push((n - (before[type] ?? 0)) / calls);
}
const median = (xs: number[]) => {
  const s = [...xs, ...Array<number>(rounds - xs.length).fill(0)].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const rows = Object.entries(grown)
  .map(([type, n]) => [type, median(n)] as const)
  .filter(([, n]) => n >= 0.05)
  .sort((a, b) => b[1] - a[1]);
const total = rows.reduce((sum, [, n]) => sum + n, 0);
console.log(`${p.scenario.id}: ${total.toFixed(1)} cells allocated a call`);
for (const [type, n] of rows) console.log(`${n.toFixed(2).padStart(8)}  ${type}`);
await p.close();
process.exit(0);
