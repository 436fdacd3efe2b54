/**
 * The benchmark suite: `bun run bench [--quick] [--binary [--mock-from-binary]] [--only id,id] [--seconds N] [--rounds N] [--soak-seconds N]`.
 *
 * Starts the mock provider, the bare proxy and the gateway on loopback, runs every
 * scenario (bench/scenarios.ts) against them in alternating rounds, adds the
 * micro-benchmarks (scanner, key lookup, policy share, the pipeline in process) and the memory runs (idle, a
 * soak, 100,000 keys), prints a Markdown table and
 * writes it with the raw figures to bench/results/<date>.{json,md}. `--quick` is a
 * smoke test of the suite itself (seconds, not judged); any error fails a run.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { judge } from "./lib/budget.ts";
import { inFreshProcess } from "./lib/fresh-process.ts";
import { measureScenario, type Timing } from "./lib/measure.ts";
import { ROOT } from "./lib/processes.ts";
import { markdown, resultStamp, type Row, writeResults } from "./lib/report.ts";
import { startTargets } from "./lib/targets.ts";
import type { runKeyLookupBench } from "./key-lookup.bench.ts";
import { runMemoryBench } from "./memory.bench.ts";
import type { runPipelineBench } from "./pipeline.bench.ts";
import type { runPolicyBench } from "./policy.bench.ts";
import type { runScannerBench } from "./scanner.bench.ts";
import { SCENARIOS, type TargetKind } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    binary: { type: "boolean", default: false },
    "mock-from-binary": { type: "boolean", default: false },
    only: { type: "string" },
    seconds: { type: "string" },
    rounds: { type: "string" },
    out: { type: "string" },
    "soak-seconds": { type: "string" },
  },
});

const timing: Timing = args.quick
  ? { warmupSeconds: 0.3, roundSeconds: 0.5, rounds: 1 }
  : { warmupSeconds: 3, roundSeconds: Number(args.seconds ?? 10), rounds: Number(args.rounds ?? 3) };
if (args["mock-from-binary"] && !args.binary) {
  console.error("--mock-from-binary runs the mock provider from the compiled binary, so it needs --binary");
  process.exit(2);
}
const only = args.only?.split(",");
const scenarios = SCENARIOS.filter((s) => !only || only.includes(s.id));
if (scenarios.length === 0) {
  console.error(`no scenario matches --only ${args.only}; known: ${SCENARIOS.map((s) => s.id).join(", ")}`);
  process.exit(2);
}

async function buildBinary(): Promise<string[]> {
  const proc = Bun.spawn(["bun", "run", "build"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error("bun run build failed");
  const path = join(ROOT, "dist", "gateway");
  if (!existsSync(path)) throw new Error(`${path} is missing after the build`);
  return [path];
}

const log = (line: string) => console.error(line);
const binary = args.binary ? await buildBinary() : null;
const kinds = new Set<TargetKind>(scenarios.flatMap((s) => s.targets));
const targets = await startTargets({ binary, kinds, mockFromBinary: args["mock-from-binary"] });
const rows: Row[] = [];
try {
  for (const s of scenarios) {
    const chosen = targets.all.filter((t) => s.targets.includes(t.kind));
    log(`${s.title}: ${chosen.map((t) => t.label).join(", ")}`);
    rows.push(...(await measureScenario(s, chosen, timing, log)));
  }
} finally {
  await targets.stop();
}

log("micro-benchmarks: scanner, key lookup, policy, the pipeline in process");
// Each in a process of its own, so this one's heap does not weigh on them.
const micro = {
  scanner: await inFreshProcess<Awaited<ReturnType<typeof runScannerBench>>>("bench/scanner.bench.ts", "runScannerBench", [args.quick]),
  keyLookup: await inFreshProcess<Awaited<ReturnType<typeof runKeyLookupBench>>>("bench/key-lookup.bench.ts", "runKeyLookupBench", [
    args.quick,
  ]),
  policy: await inFreshProcess<Awaited<ReturnType<typeof runPolicyBench>>>("bench/policy.bench.ts", "runPolicyBench", [args.quick]),
  pipeline: await inFreshProcess<Awaited<ReturnType<typeof runPipelineBench>>>("bench/pipeline.bench.ts", "runPipelineBench", [
    { requests: args.quick ? 2_000 : 200_000 },
  ]),
};
const soakSeconds = args["soak-seconds"] ? Number(args["soak-seconds"]) : undefined;
log(`memory: idle, a ${soakSeconds ?? (args.quick ? 3 : 300)} s soak at 50 connections, ${args.quick ? "2,000" : "100,000"} keys`);
const memory = await runMemoryBench({ quick: args.quick, soakSeconds });
const checks = judge(rows, !args.quick);
const soakBad =
  memory.soak.errors + Object.entries(memory.soak.statuses).reduce((n, [status, count]) => n + (Number(status) >= 500 ? count : 0), 0);
checks.push({
  budget: `soak (${memory.soak.seconds} s, 50 conns): no error, no 5xx`,
  measured: `${soakBad} of ${memory.soak.requests.toLocaleString("en-US")}`,
  ok: soakBad === 0,
});
checks.push({
  budget: "soak: resident set grows ≤ 10% after warm-up",
  measured: `${(memory.soak.growth * 100).toFixed(1)}% (${memory.soak.warmMiB.toFixed(0)} → ${memory.soak.endMiB.toFixed(0)} MiB)`,
  ok: args.quick ? null : memory.soak.growth <= 0.1,
});
// The gateway's CPU for the very body the policy stages were timed on (issue 5: a 2 KB prompt).
const gatewayCpu = rows.find((r) => r.scenario === "chat-2k-50" && r.kind === "gateway")?.cpuPerRequest;
if (gatewayCpu !== undefined) {
  const share = micro.policy.microsPerCall / gatewayCpu;
  checks.push({
    budget: "policy stages (2 KB prompt) < 15% of the gateway's CPU per request",
    measured: `${(share * 100).toFixed(1)}% (${micro.policy.microsPerCall.toFixed(1)} of ${gatewayCpu.toFixed(0)} µs)`,
    ok: args.quick ? null : share < 0.15,
  });
}
const notes = [
  `${new Date().toISOString()}, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores; rounds ${timing.rounds} × ${timing.roundSeconds} s after ${timing.warmupSeconds} s warm-up, medians of rounds${args.quick ? " (quick: a smoke test, not a measurement)" : ""}${args["mock-from-binary"] ? "; the mock provider run by the compiled binary" : ""}.`,
  `Scanner: ${micro.scanner.map((r) => `${r.text} ${r.size}: ${r.mbPerSecond.toFixed(0)} MB/s`).join("; ")}.`,
  `The gateway's own code, in process (network and runtime taken out, bench/pipeline.bench.ts): ${micro.pipeline.microsPerRequest.toFixed(1)} µs of CPU per 1 KB chat call; the minimal path of the required stages alone (bench/lib/minimal-path.ts): ${micro.pipeline.minimalMicrosPerRequest?.toFixed(1)} µs.`,
  `Key lookup, ${micro.keyLookup.keys.toLocaleString("en-US")} keys: cached ${micro.keyLookup.cachedMicros.toFixed(2)} µs, from the store ${micro.keyLookup.storeMicros.toFixed(1)} µs per lookup.`,
  `Memory (resident set): idle ${memory.idleMiB.toFixed(0)} MiB; soak of ${memory.soak.requests.toLocaleString("en-US")} requests in ${memory.soak.seconds} s: ${memory.soak.warmMiB.toFixed(0)} MiB warm, ${memory.soak.endMiB.toFixed(0)} MiB at the end; ${memory.keys.count.toLocaleString("en-US")} keys in store and cache: ${memory.keys.idleMiB.toFixed(0)} MiB idle, ${memory.keys.cachedMiB.toFixed(0)} MiB with every key cached.`,
];
const table = markdown(rows, checks, notes);
console.log(table);
const stamp = resultStamp();
const written = writeResults(
  args.out ?? join(ROOT, "bench", "results"),
  args.quick ? `quick-${stamp}` : stamp,
  { timing, rows, checks, micro, memory },
  table,
);
log(`written: ${written}.json, ${written}.md`);
if (rows.some((r) => r.errors > 0) || soakBad > 0 || memory.keys.errors > 0) {
  log("the run had errors");
  process.exit(1);
}
