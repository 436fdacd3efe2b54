/**
 * Where the gateway's CPU goes on one scenario: starts the mock and a gateway under
 * Bun's sampling profiler, runs the scenario's load, stops the gateway (which writes
 * the profile) and prints the heaviest functions and files by self time.
 *
 *   bun bench/profile.ts [--scenario chat-1k-50] [--seconds 10] [--top 40] [--shared] [--base REV]
 *
 * `--shared` profiles the scale-out configuration (private Redis and Postgres), where
 * the shared state's own CPU shows up beside the rest of the request. `--base REV`
 * profiles that revision's gateway instead (exported, with this tree's packages), for
 * the per-stage split old against new (bench/lib/profile-stages.ts), which is printed
 * as microseconds of sampled JavaScript-thread time per request.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { runLoad } from "./lib/load.ts";
import { CLI, ROOT, Started, startMock } from "./lib/processes.ts";
import { startPostgres, startRedis } from "../test/support/servers.ts";
import { gatewayTarget, OPEN_RATE_LIMIT } from "./lib/targets.ts";
import { type Profile, type ProfileNode, splitByStage } from "./lib/profile-stages.ts";
import { exportRevision } from "./lib/revision.ts";
import { SCENARIOS } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    scenario: { type: "string", default: "chat-1k-50" },
    seconds: { type: "string", default: "10" },
    top: { type: "string", default: "40" },
    shared: { type: "boolean", default: false },
    base: { type: "string" },
  },
});
const scenario = SCENARIOS.find((s) => s.id === args.scenario && s.mode === "load");
if (!scenario) {
  console.error(
    `no load scenario ${args.scenario}; known: ${SCENARIOS.filter((s) => s.mode === "load")
      .map((s) => s.id)
      .join(", ")}`,
  );
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), "gw-prof-"));
const started = new Started();
const INTERVAL_US = 250;
let requests = 0;
try {
  const exported = args.base ? await exportRevision(args.base) : null;
  if (exported) started.add({ url: "", pid: 0, stop: async () => exported.remove() });
  const cli = exported ? join(exported.dir, "src", "cli.ts") : CLI;
  const mock = started.add(await startMock());
  let env: Record<string, string> = OPEN_RATE_LIMIT;
  if (args.shared) {
    const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    started.add({ url: redis.url, pid: 0, stop: () => redis.stop() });
    started.add({ url: pg.urlFor("postgres"), pid: 0, stop: () => pg.stop() });
    env = { ...env, GW_REDIS_URL: redis.url, GW_DATABASE_URL: await pg.createDatabase() };
  }
  const gw = await gatewayTarget(
    args.shared ? "shared" : "gateway",
    "gateway (profiled)",
    mock.url,
    ["bun", "--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${INTERVAL_US}`, "run", cli],
    env,
  );
  started.add(gw.proc);
  const req = scenario.request(gw.target.credentials);
  const warm = await runLoad(gw.target.url, req, { connections: scenario.connections, seconds: 2, expectStatus: scenario.expectStatus });
  const load = await runLoad(gw.target.url, req, {
    connections: scenario.connections,
    seconds: Number(args.seconds),
    expectStatus: scenario.expectStatus,
  });
  requests = warm.requests + load.requests;
  console.log(`${scenario.title}${args.base ? ` at ${args.base}` : ""}: ${Math.round(load.rps)} req/s, ${load.errors} errors`);
} finally {
  await started.stopAll();
}

// `init` runs under the profiler too and writes a small profile of its own: the server's is the largest.
const file = readdirSync(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
if (!file) throw new Error(`no profile was written to ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const where = (f: ProfileNode["callFrame"]) => (f.url ? relative(ROOT, f.url.replace(/^file:\/\//, "")) || f.url : "(native)");
const nameOf = (f: ProfileNode["callFrame"]) => `${f.functionName || "(anonymous)"}  ${where(f)}:${f.lineNumber + 1}`;
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
/** Samples with the function anywhere on the stack (each function once per sample). */
const inclusive = new Map<string, number>();
for (const id of profile.samples) {
  const f = byId.get(id)?.callFrame;
  if (!f) continue;
  byFunction.set(nameOf(f), (byFunction.get(nameOf(f)) ?? 0) + 1);
  byFile.set(where(f), (byFile.get(where(f)) ?? 0) + 1);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (!frame || !frame.url) continue;
    const name = nameOf(frame);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
  }
}
const total = profile.samples.length;
const top = (m: Map<string, number>, n: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
    .join("\n");
console.log(`\nself time by function (${total} samples):\n${top(byFunction, Number(args.top))}`);
console.log(`\nself time by file:\n${top(byFile, 25)}`);
console.log(`\ntotal time (self and callees) of the project's functions:\n${top(inclusive, Number(args.top))}`);
const split = splitByStage(profile);
console.log(`\nby stage (${split.total} samples that were not idle; µs of sampled time per request, ${requests} requests):`);
for (const [stage, n] of [...split.samples.entries()].sort((a, b) => b[1] - a[1]))
  console.log(`${((n * INTERVAL_US) / requests).toFixed(1).padStart(7)} µs ${((n / split.total) * 100).toFixed(1).padStart(5)}%  ${stage}`);
console.log(`\nprofile: ${join(dir, file)}`);
