/**
 * How close the budget can get on this runtime: the bare proxy, the gateway, and the
 * minimal gateway (bench/minimal-gateway.ts: only the required stages, flat, no
 * framework) side by side on one scenario, in alternating rounds. With `--ablate` the
 * minimal gateway also runs with its stages added one group at a time, and each
 * stage's CPU per request is printed as the difference from its base. With
 * `--structure` it runs with every stage and, one at a time, pieces of the gateway's
 * own structure (the framework, the provider-call watch, the request frame; see
 * bench/lib/minimal-path.ts), to price each served; what the gateway costs beyond all
 * of them is the rest of its structure (its layers, resolution, reservation, adapters).
 *
 *   bun bench/floor.ts [--scenario chat-1k-50] [--ablate] [--structure] [--rounds 3] [--seconds 5]
 *   bun bench/floor.ts --quick      # a smoke test of the tool itself (CI runs it; judges no speed)
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { markdown, resultStamp, writeResults } from "./lib/report.ts";
import { measureScenario } from "./lib/measure.ts";
import { ROOT, Started, startBareProxy, startMinimalGateway, startMock } from "./lib/processes.ts";
import { gatewayTarget, keylessTarget, OPEN_RATE_LIMIT, type Target } from "./lib/targets.ts";
import { SCENARIOS } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    scenario: { type: "string", default: "chat-1k-50" },
    ablate: { type: "boolean", default: false },
    structure: { type: "boolean", default: false },
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "5" },
    quick: { type: "boolean", default: false },
  },
});
// The minimal gateway has one route: chat completions, not streamed.
const scenario = SCENARIOS.find((s) => s.id === args.scenario && s.mode === "load" && s.expectStatus === 200 && s.id.startsWith("chat-"));
if (!scenario) {
  console.error(
    `the minimal gateway serves non-streamed chat scenarios only; known: ${SCENARIOS.filter(
      (s) => s.id.startsWith("chat-") && s.mode === "load",
    )
      .map((s) => s.id)
      .join(", ")}`,
  );
  process.exit(2);
}

/** A cost read off two rows: the set minus its base ("gateway" is the gateway's row, any other a minimal gateway's stage set). */
type Cost = [name: string, set: string, base: string];
const ABLATION: Cost[] = [
  ["key lookup and rate limit", "auth+rate", "none"],
  ["parse, validate, re-serialize; answer parsed, model compared", "json", "none"],
  ["security scan", "json+scan", "json"],
  ["usage event and its SQLite flush", "json+usage", "json"],
  ["access-log line", "json+log", "json"],
];
const EVERY_STAGE: Cost = ["every stage", "all", "none"];
const STRUCTURE: Cost[] = [
  ["framework: served through Elysia", "all+framework", "all"],
  ["watch: the provider call's deadline and departed-client watch", "all+watch", "all"],
  ["frame: request id, client address, the runner's four headers", "all+frame", "all"],
  ["the three pieces together", "all+framework+watch+frame", "all"],
  ["the rest of the gateway's structure", "gateway", "all+framework+watch+frame"],
];
const STAGE_COSTS = [...(args.ablate ? ABLATION : []), EVERY_STAGE, ...(args.structure ? STRUCTURE : [])];
const SETS = [...new Set(["none", "all", ...STAGE_COSTS.flatMap(([, set, base]) => [base, set])])].filter((set) => set !== "gateway");

const started = new Started();
try {
  const mock = started.add(await startMock());
  const bare = started.add(await startBareProxy(mock.url));
  const gateway = await gatewayTarget("gateway", "gateway", mock.url, undefined, OPEN_RATE_LIMIT);
  started.add(gateway.proc);
  const targets: Target[] = [keylessTarget("bare", "bare proxy", bare), gateway.target];
  for (const set of SETS) targets.push(keylessTarget("gateway", `minimal: ${set}`, started.add(await startMinimalGateway(mock.url, set))));
  const timing = args.quick
    ? { warmupSeconds: 0.3, roundSeconds: 0.5, rounds: 1 }
    : { warmupSeconds: 2, roundSeconds: Number(args.seconds), rounds: Number(args.rounds) };
  const rows = await measureScenario(scenario, targets, timing, (line) => console.error(line));
  const errors = rows.reduce((n, r) => n + r.errors, 0);
  const cpu = new Map(rows.map((r) => [r.target, r.cpuPerRequest ?? Number.NaN]));
  const bareCpu = cpu.get("bare proxy") ?? Number.NaN;
  const notes = [
    `${new Date().toISOString()}, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores; ${scenario.title}; rounds ${timing.rounds} × ${timing.roundSeconds} s, medians${args.quick ? " (quick: a smoke test, not a measurement)" : ""}.`,
    ...STAGE_COSTS.map(([name, set, base]) => {
      const of = (name: string) => cpu.get(name === "gateway" ? "gateway" : `minimal: ${name}`) ?? Number.NaN;
      const micros = of(set) - of(base);
      return `${name}: ${micros.toFixed(1)} µs of CPU per request (${(micros / bareCpu).toFixed(2)}× the bare proxy's CPU)`;
    }),
    // Where each process's CPU goes: its JavaScript thread, or the runtime's own threads (HTTP client, collector, allocator).
    ...rows.map(
      (r) =>
        `${r.target}: ${(r.mainCpuPerRequest ?? Number.NaN).toFixed(1)} µs on the JavaScript thread, ${((r.cpuPerRequest ?? Number.NaN) - (r.mainCpuPerRequest ?? Number.NaN)).toFixed(1)} µs on the runtime's other threads`,
    ),
  ];
  const table = markdown(rows, [], notes);
  console.log(table);
  const stamp = resultStamp();
  console.error(
    `written: ${writeResults(join(ROOT, "bench", "results"), `${args.quick ? "quick-" : ""}floor-${stamp}`, { scenario: scenario.id, timing, rows }, table)}.{json,md}`,
  );
  if (errors > 0) process.exitCode = 1;
} finally {
  await started.stopAll();
}
