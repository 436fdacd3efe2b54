/**
 * The gateway's calls alone in process, for a profiler: `bun --cpu-prof
 * --cpu-prof-dir=DIR bench/lib/in-process-calls.ts [SCENARIO] [CALLS]` runs 20,000
 * calls to warm and then CALLS more at the scenario's concurrency, with nothing else in
 * the process (no harness rounds, no minimal path, whose samples would mix with the
 * gateway's), and prints the CPU per call; `bun bench/lib/profile-stages.ts DIR CPU`
 * then splits the profile by stage. An older revision's tree can run it too: copy this
 * file into its bench/lib/ (its own in-process harness drives its gateway).
 */
import { openInProcess } from "./in-process.ts";

const p = await openInProcess(process.argv[2] ?? "chat-1k-50");
const calls = Number(process.argv[3] ?? 60_000);
const concurrency = p.scenario.connections;
const run = async (n: number) => {
  let left = n;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await p.gateway();
    }),
  );
};
await run(20_000);
const before = process.cpuUsage();
await run(calls);
const used = process.cpuUsage(before);
console.log(`${p.scenario.id}: ${((used.user + used.system) / calls).toFixed(1)} µs of CPU per call (${calls} calls)`);
await p.close();
process.exit(0);
