/**
 * The CI regression guard: the gateway's CPU per call in the working tree against a fixed
 * base revision (bench/guard-base), both in process (bench/lib/guard-worker.ts: the real
 * runtime and app, the provider answered from memory), in two processes started side by
 * side and kept warm, their rounds alternating (A B B A ...) a second apart. Each pair of
 * rounds gives a ratio, change over base; the verdict is the median of the ratios, so a
 * loaded machine, which slows both sides of a pair alike, moves the figures and not the
 * verdict. It fails when a scenario's ratio is above 1 + margin; a failing first batch
 * gets a second, judged with the first, so one disturbed batch cannot fail CI alone.
 * Moving the base (when a capability legitimately costs more): docs/performance.md,
 * "The regression guard".
 *
 *   bun bench/guard.ts [--base REV] [--only chat-1k-50,chat-1k-unique-50,stream-50] [--pairs 30] [--calls 10000] [--margin 0.10]
 *   bun bench/guard.ts --calibrate   # the working tree against itself: the guard's own noise
 *   bun bench/guard.ts --quick       # a smoke test of the guard itself (judges nothing)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type PairedRounds, readGuardBase, type Verdict, verdict } from "./lib/guard-verdict.ts";
import { ROOT } from "./lib/processes.ts";
import { exportRevision } from "./lib/revision.ts";
import { SCENARIOS } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    base: { type: "string" },
    only: { type: "string", default: "chat-1k-50,chat-1k-unique-50,stream-50" },
    pairs: { type: "string", default: "30" },
    calls: { type: "string", default: "10000" },
    margin: { type: "string", default: "0.10" },
    quick: { type: "boolean", default: false },
    calibrate: { type: "boolean", default: false },
  },
});

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
      yield pending.slice(0, nl);
      pending = pending.slice(nl + 1);
    }
  }
}

/** A guard worker of one tree: rounds on request, CPU µs per call back. */
class Worker {
  private readonly proc;
  private readonly lines: AsyncIterator<string>;

  constructor(root: string, scenario: string) {
    this.proc = Bun.spawn(["bun", "run", join(root, "bench", "lib", "guard-worker.ts"), scenario], {
      cwd: root,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
    });
    this.lines = readLines(this.proc.stdout);
  }

  /** The worker's next JSON line (anything else it prints is passed over). */
  private async next(): Promise<{ ready?: boolean; micros?: number }> {
    for (let r = await this.lines.next(); !r.done; r = await this.lines.next()) if (r.value.startsWith("{")) return JSON.parse(r.value);
    throw new Error(`a guard worker exited (code ${await this.proc.exited})`);
  }

  async ready(): Promise<void> {
    await this.next();
  }

  async round(calls: number): Promise<number> {
    this.proc.stdin.write(`round ${calls}\n`);
    this.proc.stdin.flush();
    return Number((await this.next()).micros);
  }

  async end(): Promise<void> {
    this.proc.stdin.write("end\n");
    this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill(), 30_000);
    await this.proc.exited;
    clearTimeout(timer);
  }
}

/** `pairs` rounds of each side, in the order A B, B A, A B ...: neither side always goes second. */
async function measure(base: Worker, change: Worker, pairs: number, calls: number, into: PairedRounds): Promise<void> {
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      into.base.push(await base.round(calls));
      into.change.push(await change.round(calls));
    } else {
      into.change.push(await change.round(calls));
      into.base.push(await base.round(calls));
    }
  }
}

async function judge(baseRoot: string, scenario: string, pairs: number, calls: number, margin: number): Promise<Verdict> {
  const base = new Worker(baseRoot, scenario);
  const change = new Worker(ROOT, scenario);
  try {
    // Both started and warmed together; the rounds begin once both are ready.
    await Promise.all([base.ready(), change.ready()]);
    const rounds: PairedRounds = { base: [], change: [] };
    await measure(base, change, pairs, calls, rounds);
    const first = verdict(rounds, margin);
    if (!first.over || args.quick) return first;
    console.error(`  ${scenario}: ratio ${first.ratio.toFixed(3)} over the margin; a second batch of ${pairs} pairs`);
    await measure(base, change, pairs, calls, rounds);
    return verdict(rounds, margin);
  } finally {
    await Promise.all([base.end(), change.end()]);
  }
}

const ids = args.only.split(",");
for (const id of ids)
  if (!SCENARIOS.some((s) => s.id === id && s.mode === "load")) {
    console.error(`unknown load scenario ${id} in --only`);
    process.exit(2);
  }
const named = args.base ?? readGuardBase(readFileSync(join(ROOT, "bench", "guard-base"), "utf8"));
// Named as a commit id in the report, whatever the caller wrote (HEAD, a branch).
const rev =
  Bun.spawnSync(["git", "rev-parse", "--verify", `${named}^{commit}`], { cwd: ROOT })
    .stdout.toString()
    .trim() || named;
const margin = Number(args.margin);
const pairs = args.quick ? 1 : Number(args.pairs);
const calls = args.quick ? 200 : Number(args.calls);
const exported = args.calibrate ? { dir: ROOT, remove() {} } : await exportRevision(rev, { harness: true });
const verdicts: [string, Verdict][] = [];
try {
  for (const id of ids) verdicts.push([id, await judge(exported.dir, id, pairs, calls, margin)]);
} finally {
  exported.remove();
}
const against = args.calibrate ? "itself (calibration)" : rev.slice(0, 12);
console.log(
  `CPU µs per call in process, working tree against ${against}: medians of rounds of ${calls} calls; ratio = median of the pairs' ratios (quartiles)`,
);
for (const [id, v] of verdicts)
  console.log(
    `${id.padEnd(12)} base ${v.base.toFixed(1)}  change ${v.change.toFixed(1)}  ratio ${v.ratio.toFixed(3)} (${v.low.toFixed(3)}-${v.high.toFixed(3)}, ${v.pairs} pairs)  ${args.quick ? "(quick: not judged)" : v.over ? `FAIL: over ${(1 + margin).toFixed(2)}` : "pass"}`,
  );
if (!args.quick && verdicts.some(([, v]) => v.over)) {
  console.log(
    'The working tree costs more CPU per call than the margin allows. If a capability legitimately costs more, move the base (docs/performance.md, "The regression guard").',
  );
  process.exit(1);
}
