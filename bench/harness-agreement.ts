/**
 * Does the suite's load generator agree with an outside one? The same target (bare proxy
 * or gateway) loaded in alternating rounds by the suite's runLoad (autocannon as a library,
 * inside this Bun process) and by autocannon's own command line under Node (a process of
 * its own, as an outside run uses it), each round's CPU per request read from the target's
 * /proc counters over that round and divided by the requests that harness counted.
 *
 * With `--shared`, the gateway on private Redis and Postgres too (one process: a port of
 * its own makes one worker). With `--paced 500,2000`, autocannon's command line also at
 * those overall rates (-R): what the same target's CPU per request does when the load
 * comes slower than it can be served.
 *
 *   bun bench/harness-agreement.ts [--scenario chat-1k-50] [--seconds 5] [--rounds 3] [--shared] [--paced 500,2000]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runLoad } from "./lib/load.ts";
import { ROOT, Started, startBareProxy, startMock } from "./lib/processes.ts";
import { cpuMicros } from "./lib/proc-stats.ts";
import { median } from "./lib/stats.ts";
import { startPostgres, startRedis } from "../test/support/servers.ts";
import { gatewayTarget, keylessTarget, OPEN_RATE_LIMIT, type Target } from "./lib/targets.ts";
import { SCENARIOS } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    scenario: { type: "string", default: "chat-1k-50" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    shared: { type: "boolean", default: false },
    paced: { type: "string", default: "" },
  },
});
const scenario = SCENARIOS.find((s) => s.id === args.scenario && s.mode === "load");
if (!scenario) throw new Error(`no load scenario ${args.scenario}`);
const seconds = Number(args.seconds);

/** autocannon's command line under Node, as an outside run uses it; its JSON result's request count. */
async function outside(t: Target, rate = 0): Promise<number> {
  const req = scenario!.request(t.credentials);
  // The command line sends one body; a numbered scenario's would repeat and measure another thing.
  if (req.bodyAt) throw new Error(`${scenario!.id} numbers its bodies per request, which autocannon's command line cannot`);
  const argv = [
    "node",
    join(ROOT, "node_modules", "autocannon", "autocannon.js"),
    "-j",
    "-c",
    String(scenario!.connections),
    "-d",
    String(seconds),
    "-m",
    req.method,
  ];
  for (const [k, v] of Object.entries(req.headers)) argv.push("-H", `${k}=${v}`);
  if (req.body) argv.push("-b", req.body);
  if (rate > 0) argv.push("-R", String(rate));
  argv.push(t.url + req.path);
  const proc = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  const r = JSON.parse(out) as { requests: { total: number }; non2xx: number; errors: number };
  if (r.non2xx || r.errors) throw new Error(`outside autocannon: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.total;
}

async function inside(t: Target): Promise<number> {
  const r = await runLoad(t.url, scenario!.request(t.credentials), {
    connections: scenario!.connections,
    seconds,
    expectStatus: scenario!.expectStatus,
  });
  if (r.errors) throw new Error(`suite: ${r.errors} errors`);
  return r.requests;
}

const started = new Started();
try {
  const mock = started.add(await startMock());
  const bare = keylessTarget("bare", "bare proxy", started.add(await startBareProxy(mock.url)));
  const gw = await gatewayTarget("gateway", "gateway", mock.url, undefined, OPEN_RATE_LIMIT);
  started.add(gw.proc);
  const targets = [bare, gw.target];
  if (args.shared) {
    const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    started.add({ url: redis.url, pid: 0, stop: () => redis.stop() });
    started.add({ url: pg.urlFor("postgres"), pid: 0, stop: () => pg.stop() });
    const env = { ...OPEN_RATE_LIMIT, GW_REDIS_URL: redis.url, GW_DATABASE_URL: await pg.createDatabase() };
    const shared = await gatewayTarget("shared", "gateway, Redis + Postgres", mock.url, undefined, env);
    started.add(shared.proc);
    targets.push(shared.target);
  }
  const harnesses: [string, (t: Target) => Promise<number>][] = [
    ["suite", inside],
    ["outside", (t) => outside(t)],
  ];
  for (const rate of args.paced.split(",").filter(Boolean).map(Number))
    harnesses.push([`outside, paced at ${rate} req/s`, (t) => outside(t, rate)]);
  const samples = new Map<string, { cpu: number[]; rps: number[] }>();
  for (const t of targets) for (const [h] of harnesses) samples.set(`${t.label}|${h}`, { cpu: [], rps: [] });
  for (const t of targets) for (const [, run] of harnesses) await run(t); // warm-up
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const t of targets) {
      for (const [h, run] of harnesses) {
        const before = cpuMicros(t.pid);
        const n = await run(t);
        const s = samples.get(`${t.label}|${h}`)!;
        s.cpu.push((cpuMicros(t.pid) - before) / n);
        s.rps.push(n / seconds);
        console.error(`round ${round + 1} ${t.label} ${h}: ${Math.round(n / seconds)} req/s, ${s.cpu.at(-1)!.toFixed(1)} µs/req`);
      }
    }
  }
  console.log(`| target | harness | req/s | CPU µs/req (median of rounds) |\n|---|---|--:|--:|`);
  for (const [key, s] of samples) {
    const [label, h] = key.split("|");
    console.log(`| ${label} | ${h} | ${Math.round(median(s.rps))} | ${median(s.cpu).toFixed(1)} |`);
  }
} finally {
  await started.stopAll();
}
