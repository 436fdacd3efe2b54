/**
 * Where the scale-out configuration's extra CPU comes from: the same scenario against
 * four gateways (embedded, Redis only, Postgres only, both), interleaved round by round,
 * each row the median CPU µs per request (whole process and main thread) with its spread.
 * With `--capped`, the organization has a monthly budget (far above what the run spends),
 * so every call reserves its spend in the ledger: with Redis, the capped path's round trips.
 * With `--base <rev>`, the embedded and the Redis + Postgres gateway of that revision
 * (exported into a temporary folder, run with this tree's packages) beside this tree's:
 * what a change does to the shared state's cost, base and change in the same rounds.
 *
 *   bun bench/shared-split.ts [--scenario chat-1k-50] [--seconds 5] [--rounds 3] [--base 7eb2723] [--capped]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startPostgres, startRedis } from "../test/support/servers.ts";
import { runLoad } from "./lib/load.ts";
import { Started, startMock } from "./lib/processes.ts";
import { exportRevision } from "./lib/revision.ts";
import { cpuMicros, mainThreadCpuMicros } from "./lib/proc-stats.ts";
import { gatewayTarget, OPEN_RATE_LIMIT, op, type Target } from "./lib/targets.ts";
import { SCENARIOS } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    scenario: { type: "string", default: "chat-1k-50" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    base: { type: "string" },
    capped: { type: "boolean", default: false },
  },
});
const scenario = SCENARIOS.find((s) => s.id === args.scenario && s.mode === "load");
if (!scenario) throw new Error(`no load scenario ${args.scenario}`);

/** A million dollars: a budget every call checks and reserves against, which no run comes near. */
const CAPPED_BUDGET_CENTS = 100_000_000;

const started = new Started();
const exported = args.base ? await exportRevision(args.base) : null;
const base = exported?.dir ?? null;
if (exported) started.add({ url: "", pid: 0, stop: async () => exported.remove() });
const rows = new Map<Target, { cpu: number[]; main: number[]; rps: number[]; p50: number[] }>();
try {
  const mock = started.add(await startMock());
  const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  started.add({ url: redis.url, pid: 0, stop: () => redis.stop() });
  started.add({ url: pg.urlFor("postgres"), pid: 0, stop: () => pg.stop() });
  const both = async () => ({ GW_REDIS_URL: redis.url, GW_DATABASE_URL: await pg.createDatabase() });
  const baseCommand = base ? ["bun", "run", join(base, "src", "cli.ts")] : undefined;
  const configs: [string, Record<string, string>, string[] | undefined][] = base
    ? [
        [`embedded, ${args.base}`, {}, baseCommand],
        [`Redis + Postgres, ${args.base}`, await both(), baseCommand],
        ["embedded, this tree", {}, undefined],
        ["Redis + Postgres, this tree", await both(), undefined],
      ]
    : [
        ["embedded", {}, undefined],
        ["Redis only", { GW_REDIS_URL: redis.url }, undefined],
        ["Postgres only", { GW_DATABASE_URL: await pg.createDatabase() }, undefined],
        ["Redis + Postgres", await both(), undefined],
      ];
  const targets: Target[] = [];
  for (const [label, env, command] of configs) {
    const g = await gatewayTarget("gateway", label, mock.url, command, { ...OPEN_RATE_LIMIT, ...env });
    started.add(g.proc);
    if (args.capped)
      await op(g.target.url, g.target.credentials.live, "user.preferences", { set: { monthlyBudgetCents: CAPPED_BUDGET_CENTS } });
    targets.push(g.target);
    rows.set(g.target, { cpu: [], main: [], rps: [], p50: [] });
  }
  const load = (t: Target, seconds: number) =>
    runLoad(t.url, scenario.request(t.credentials), { connections: scenario.connections, seconds, expectStatus: scenario.expectStatus });
  for (const t of targets) await load(t, 2);
  for (let round = 0; round < Number(args.rounds); round++)
    for (const t of targets) {
      const [cpu0, main0] = [cpuMicros(t.pid), mainThreadCpuMicros(t.pid)];
      const r = await load(t, Number(args.seconds));
      const row = rows.get(t)!;
      row.cpu.push((cpuMicros(t.pid) - cpu0) / r.requests);
      row.main.push((mainThreadCpuMicros(t.pid) - main0) / r.requests);
      row.rps.push(r.rps);
      row.p50.push(r.p50);
      if (r.errors > 0) console.log(`  ${t.label}: ${r.errors} errors`);
    }
} finally {
  await started.stopAll();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const show = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
console.log(
  `${scenario.title}${args.capped ? ", capped (organization budget)" : ""}, ${args.rounds} rounds of ${args.seconds} s: CPU µs/req (spread)`,
);
for (const [t, r] of rows)
  console.log(
    `${t.label.padEnd(18)} ${median(r.rps).toFixed(0).padStart(6)} req/s  p50 ${show(r.p50)} µs  all threads ${show(r.cpu)}  main thread ${show(r.main)}`,
  );
