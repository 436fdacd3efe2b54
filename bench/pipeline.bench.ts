/**
 * The gateway's own CPU per request with the network taken out: the real runtime and
 * app (every stage, the usage flush to SQLite, the log line) handle Requests in this
 * process, and the provider's fetch is answered from memory with the mock's own bytes.
 * What the harness itself costs (building a Request, the canned answer) is measured
 * alone and subtracted. Far less noisy than the HTTP rounds, so a change of a
 * microsecond shows. The minimal path (bench/lib/minimal-path.ts: the required stages
 * alone, flat) runs through the same harness, as the floor to compare with. Profile with
 *
 *   bun --cpu-prof --cpu-prof-dir=/tmp/prof bench/pipeline.bench.ts [--requests N]
 *
 *   bun bench/pipeline.bench.ts [--requests 200000] [--concurrency 50] [--scenario chat-1k-50]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/http/app.ts";
import { createLogger } from "../src/lib/log.ts";
import { createRuntime } from "../src/runtime.ts";
import type { LoadRequest } from "./lib/load.ts";
import { createMinimalPath } from "./lib/minimal-path.ts";
import { PROVIDER_KEY, runGatewayCli, startMock } from "./lib/processes.ts";
import { median } from "./lib/stats.ts";
import { OPEN_RATE_LIMIT } from "./lib/targets.ts";
import { SCENARIOS } from "./scenarios.ts";

export interface PipelineResult {
  scenario: string;
  /** CPU µs per request of the gateway's code (harness cost subtracted). */
  microsPerRequest: number;
  /** CPU µs per request of the harness alone (Request, canned answer, reading it). */
  harnessMicros: number;
  /** The same for the minimal path (bench/lib/minimal-path.ts: the required stages alone, flat); chat scenarios only. */
  minimalMicrosPerRequest: number | null;
}

/** The mock's answer to `req`, captured once: what the in-memory provider replays. */
interface Canned {
  status: number;
  headers: [string, string][];
  body: string;
}

async function capture(req: LoadRequest): Promise<Canned> {
  const mock = await startMock();
  try {
    const res = await fetch(`${mock.url}${req.path}`, { method: req.method, headers: { ...req.headers, authorization: `Bearer ${PROVIDER_KEY}` }, body: req.body });
    return { status: res.status, headers: [...res.headers].filter(([k]) => k !== "content-length" && k !== "date"), body: await res.text() };
  } finally {
    await mock.stop();
  }
}

async function cpuPerRequest(send: () => Promise<void>, requests: number, concurrency: number): Promise<number> {
  let left = requests;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await send();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

/** The minimal path through the same harness: same Request, same canned answer, same log line dropped. */
async function minimalThrough(req: LoadRequest, canned: Canned): Promise<{ through: () => Promise<void>; close(): Promise<void> }> {
  const path = await createMinimalPath({ upstream: "http://provider.invalid", stages: "all", fetch: async () => new Response(canned.body, { status: canned.status, headers: canned.headers }), writeLog: () => {} });
  const headers = { ...req.headers, authorization: `Bearer ${PROVIDER_KEY}`, "content-length": String(Buffer.byteLength(req.body ?? "")) };
  const through = async () => {
    const res = await path.handle(new Request(`http://localhost${req.path}`, { method: req.method, headers, body: req.body }));
    if (res.status !== 200) throw new Error(`minimal path: status ${res.status}: ${await res.text()}`);
    await res.text();
  };
  return { through, close: () => path.close() };
}

const ROUNDS = 3;

export async function runPipelineBench(opts: { scenario?: string; requests?: number; concurrency?: number } = {}): Promise<PipelineResult> {
  const scenario = SCENARIOS.find((s) => s.id === (opts.scenario ?? "chat-1k-50") && s.mode === "load");
  if (!scenario) throw new Error(`no load scenario ${opts.scenario}`);
  const requests = opts.requests ?? 200_000;
  const concurrency = opts.concurrency ?? 50;
  const data = mkdtempSync(join(tmpdir(), "gw-pipeline-"));
  const init = JSON.parse(await runGatewayCli(["init", "--data", data, "--org", "Bench", "--email", "bench@example.com", "--json"])) as { apiKey: string };
  const canned = await capture(scenario.request({ live: PROVIDER_KEY, test: PROVIDER_KEY }));

  const realFetch = globalThis.fetch;
  const providerBase = "http://provider.invalid";
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(providerBase)) return realFetch(input, init);
    return new Response(canned.body, { status: canned.status, headers: canned.headers });
  }) as typeof fetch;

  const config = loadConfig({ data }, { ...process.env, ...OPEN_RATE_LIMIT });
  // The log line is built as in production; only its write to stdout is dropped.
  const log = createLogger(config.logLevel, () => {});
  const rt = await createRuntime(config, log);
  const app = createApp(rt);
  try {
    const op = async (operation: string, params: object) => {
      const res = await app.handle(new Request("http://localhost/api/v1/gateway", { method: "POST", headers: { authorization: `Bearer ${init.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ operation, params }) }));
      if (res.status !== 200) throw new Error(`${operation}: ${await res.text()}`);
    };
    await op("provider.create", { provider: "openai", apiKey: PROVIDER_KEY, baseUrl: `${providerBase}/v1`, scope: "organization" });
    await op("provider.create", { provider: "anthropic", apiKey: PROVIDER_KEY, baseUrl: providerBase, scope: "organization" });

    const req = scenario.request({ live: init.apiKey, test: init.apiKey });
    // As a client sends it: with its Content-Length (a server's Request has one; a built one does not).
    const headers = { ...req.headers, "content-length": String(Buffer.byteLength(req.body ?? "")) };
    const build = () => new Request(`http://localhost${req.path}`, { method: req.method, headers, body: req.body });
    const through = async () => {
      const res = await app.handle(build());
      if (res.status !== scenario.expectStatus) throw new Error(`status ${res.status}: ${await res.text()}`);
      await res.text();
    };
    // The harness alone: the same Request and answer objects, no gateway between them.
    const harness = async () => {
      build();
      await (await fetch(`${providerBase}/v1/chat/completions`)).text();
    };
    // The minimal path has one route: chat completions, answered whole.
    const minimal = req.path === "/v1/chat/completions" && !req.body?.includes('"stream":true') ? await minimalThrough(req, canned) : null;
    const kinds = [harness, through, ...(minimal ? [minimal.through] : [])];
    const warm = Math.min(20_000, requests);
    for (const send of kinds) await cpuPerRequest(send, warm, concurrency);
    // Alternating rounds, as in the HTTP suite: whatever the process carries (heap, timers) weighs on each alike.
    const samples = kinds.map(() => [] as number[]);
    const perRound = Math.max(1, Math.round(requests / ROUNDS));
    for (let round = 0; round < ROUNDS; round++) for (const [i, send] of kinds.entries()) samples[i]?.push(await cpuPerRequest(send, perRound, concurrency));
    await rt.usage.flush();
    await minimal?.close();
    const [harnessMicros = 0, total = 0, minimalTotal] = samples.map(median);
    return { scenario: scenario.id, microsPerRequest: total - harnessMicros, harnessMicros, minimalMicrosPerRequest: minimalTotal === undefined ? null : minimalTotal - harnessMicros };
  } finally {
    globalThis.fetch = realFetch;
    await rt.shutdown();
    rmSync(data, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { scenario: { type: "string" }, requests: { type: "string" }, concurrency: { type: "string" } } });
  const r = await runPipelineBench({ scenario: values.scenario, requests: values.requests ? Number(values.requests) : undefined, concurrency: values.concurrency ? Number(values.concurrency) : undefined });
  console.log(`${r.scenario}: ${r.microsPerRequest.toFixed(1)} µs of CPU per request in the gateway's code (harness ${r.harnessMicros.toFixed(1)} µs, subtracted)`);
  if (r.minimalMicrosPerRequest !== null) console.log(`${r.scenario}: ${r.minimalMicrosPerRequest.toFixed(1)} µs in the minimal path's (the required stages alone, flat)`);
}
