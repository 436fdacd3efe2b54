/**
 * One side of bench/guard.ts: the gateway of the tree this file sits in, in process
 * (bench/lib/in-process.ts), kept open and warm while the guard asks for rounds on stdin,
 * so the two trees' rounds alternate a second apart instead of a process apart. Each
 * `round N` line runs N calls and prints the CPU µs per call of the gateway's code (the
 * harness's own cost, measured in the same round, subtracted) as one JSON line; `end`
 * closes it. Not run by hand.
 *
 *   bun bench/lib/guard-worker.ts SCENARIO
 */
import { cpuPerCall, openInProcess } from "./in-process.ts";

const p = await openInProcess(process.argv[2]);
const concurrency = p.scenario.connections;
// Warm: the JIT's tiers reached and the caches filled before the first counted round.
await cpuPerCall(p.harness, 5_000, concurrency);
await cpuPerCall(p.gateway, 20_000, concurrency);
console.log(JSON.stringify({ ready: true }));
for await (const line of console) {
  const [word, n] = line.trim().split(" ");
  if (word === "round") {
    const calls = Number(n);
    const harness = await cpuPerCall(p.harness, Math.max(500, Math.round(calls / 4)), concurrency);
    const gateway = await cpuPerCall(p.gateway, calls, concurrency);
    console.log(JSON.stringify({ micros: gateway - harness }));
  } else if (word === "end") break;
}
await p.close();
process.exit(0);
