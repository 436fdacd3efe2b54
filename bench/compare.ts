/**
 * A change to the request path, judged served and in process: the gateway as it is in the working
 * tree beside the gateway at a base revision (checked out into a temporary worktree),
 * with the bare proxy as the common reference, on the given scenarios in alternating
 * rounds. Prints the usual table and, per scenario, the working tree's CPU per request
 * and rate against the base's; then the in-process figure of each tree
 * (bench/pipeline.bench.ts, fresh processes, alternating), which sees a change of a
 * microsecond that the served rounds (±2 µs) cannot; both trees run it with the working
 * tree's harness (bench/), so only the gateway's code differs. The served figure includes what
 * only serving costs (the socket, the framework's served path, the collector on a
 * busier heap); the in-process one is the steadier. Read both.
 *
 *   bun bench/compare.ts [--base HEAD] [--only chat-1k-50,chat-1k-1] [--rounds 5] [--seconds 5]
 *   bun bench/compare.ts --quick      # a smoke test of the tool itself (judges no speed)
 */
import { cpSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { inFreshProcess } from "./lib/fresh-process.ts";
import { measureScenario } from "./lib/measure.ts";
import { newDataDir, ROOT, Started, startBareProxy, startMock } from "./lib/processes.ts";
import { markdown, type Row } from "./lib/report.ts";
import { median } from "./lib/stats.ts";
import { gatewayTarget, keylessTarget, OPEN_RATE_LIMIT, type Target } from "./lib/targets.ts";
import type { PipelineResult } from "./pipeline.bench.ts";
import { SCENARIOS } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "HEAD" },
    only: { type: "string", default: "chat-1k-50,chat-1k-1" },
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "5" },
    quick: { type: "boolean", default: false },
  },
});
const ids = args.only.split(",");
const scenarios = SCENARIOS.filter((s) => ids.includes(s.id) && s.targets.includes("gateway"));
if (scenarios.length !== ids.length) {
  console.error(
    `unknown or gateway-less scenario in --only ${args.only}; known: ${SCENARIOS.filter((s) => s.targets.includes("gateway"))
      .map((s) => s.id)
      .join(", ")}`,
  );
  process.exit(2);
}

/** Each tree's own code in process (its bench/pipeline.bench.ts, each run in a fresh process), alternating. */
async function inProcess(baseTree: string, rev: string, quick: boolean): Promise<string> {
  const requests = quick ? 2_000 : 200_000;
  const runs = quick ? 1 : 3;
  const micros: [number[], number[]] = [[], []];
  try {
    for (let i = 0; i < runs; i++) {
      for (const [t, root] of [baseTree, ROOT].entries()) {
        const r = await inFreshProcess<PipelineResult>("bench/pipeline.bench.ts", "runPipelineBench", [{ requests }], root);
        micros[t]?.push(r.microsPerRequest);
      }
    }
  } catch (err) {
    return `in process: not comparable at ${rev} (${(err as Error).message}).`;
  }
  const [was, now] = micros.map(median) as [number, number];
  return `in process (bench/pipeline.bench.ts, ${runs} alternating run${runs > 1 ? "s" : ""} of ${requests.toLocaleString("en-US")} requests): working tree ${now.toFixed(1)} µs of CPU per 1 KB chat call, ${rev} ${was.toFixed(1)} µs (${now - was >= 0 ? "+" : ""}${(now - was).toFixed(1)}).`;
}

async function git(...argv: string[]): Promise<string> {
  const proc = Bun.spawn(["git", ...argv], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`git ${argv.join(" ")}: ${err.trim()}`);
  return out.trim();
}

const rev = await git("rev-parse", "--short", args.base);
const tree = newDataDir();
const worktree = join(tree.dir, "base");
await git("worktree", "add", "--detach", worktree, rev);
// The base runs with the working tree's packages: a comparison of the gateway's code, not of its dependencies.
symlinkSync(join(ROOT, "node_modules"), join(worktree, "node_modules"));
// And in process with the working tree's harness (bench/, less its results): how a call is
// driven and answered stays the same on both sides, only the gateway's code differs.
cpSync(join(ROOT, "bench"), join(worktree, "bench"), {
  recursive: true,
  filter: (path) => !path.startsWith(join(ROOT, "bench", "results")),
});

const started = new Started();
try {
  const mock = started.add(await startMock());
  const bare = started.add(await startBareProxy(mock.url));
  const base = await gatewayTarget(
    "gateway",
    `gateway at ${rev}`,
    mock.url,
    ["bun", "run", join(worktree, "src", "cli.ts")],
    OPEN_RATE_LIMIT,
  );
  started.add(base.proc);
  const current = await gatewayTarget("gateway", "gateway (working tree)", mock.url, undefined, OPEN_RATE_LIMIT);
  started.add(current.proc);
  const targets: Target[] = [keylessTarget("bare", "bare proxy", bare), base.target, current.target];

  const timing = args.quick
    ? { warmupSeconds: 0.3, roundSeconds: 0.5, rounds: 1 }
    : { warmupSeconds: 2, roundSeconds: Number(args.seconds), rounds: Number(args.rounds) };
  const rows: Row[] = [];
  const notes = [
    `${new Date().toISOString()}, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores; rounds ${timing.rounds} × ${timing.roundSeconds} s, medians${args.quick ? " (quick: a smoke test, not a measurement)" : ""}.`,
  ];
  for (const s of scenarios) {
    const measured = await measureScenario(s, targets, timing, (line) => console.error(line));
    rows.push(...measured);
    const [was, now] = [base.target.label, current.target.label].map((label) => measured.find((r) => r.target === label));
    if (!was || !now) continue;
    const cpu = (now.cpuPerRequest ?? Number.NaN) - (was.cpuPerRequest ?? Number.NaN);
    const rate = s.mode === "load" ? `, rate ${((now.rps ?? Number.NaN) / (was.rps ?? Number.NaN)).toFixed(3)}× the base's` : "";
    notes.push(`${s.id}: working tree ${cpu >= 0 ? "+" : ""}${cpu.toFixed(1)} µs of CPU per request against ${rev}${rate}.`);
  }
  notes.push(await inProcess(worktree, rev, args.quick));
  console.log(markdown(rows, [], notes));
  if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
} finally {
  await started.stopAll();
  await git("worktree", "remove", "--force", worktree);
  tree.remove();
}
