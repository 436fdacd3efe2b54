/**
 * What routing adds to a call end to end (issue 24's budget: at most 3 µs of CPU over
 * the explicit model). The same 1 KB chat call named (`gpt-5-nano`) and routed
 * (`gateway/auto` with `x-gw-route: cost`, which picks that model among the openai and
 * anthropic configurations' catalog models), on one gateway, in alternating rounds, so
 * both see the same machine: the same provider answers both with the same bytes and
 * both are accounted alike, so the difference is the routing.
 *
 * In process (default; bench/pipeline.bench.ts's setup: the network taken out, the
 * provider answered from memory) it is the gateway's CPU per call; with `--http` the
 * gateway and the mock run as processes under load (50 connections) and the gateway
 * process's CPU per request is read from /proc, with `gpt-4o` (the chat-1k-50
 * scenario's call) beside them.
 *
 *   bun bench/routing-gap.bench.ts [--requests 15000] [--rounds 7]
 *   bun bench/routing-gap.bench.ts --http [--seconds 4] [--rounds 5]
 *   bun --cpu-prof bench/routing-gap.bench.ts --only named|routed   (one kind, for a profile of each)
 */
import { parseArgs } from "node:util";
import { type LoadRequest, runLoad } from "./lib/load.ts";
import { cpuMicros } from "./lib/proc-stats.ts";
import { capture, cpuPerCall, gatewayInProcess, inProcessSender, type Send } from "./lib/in-process.ts";
import { PROVIDER_KEY, Started, startMock } from "./lib/processes.ts";
import { median } from "./lib/stats.ts";
import { gatewayTarget, OPEN_RATE_LIMIT } from "./lib/targets.ts";

const { values: args } = parseArgs({
  options: {
    http: { type: "boolean", default: false },
    requests: { type: "string", default: "15000" },
    seconds: { type: "string", default: "4" },
    rounds: { type: "string", default: "7" },
    only: { type: "string" },
  },
});

const PROMPT = "The quick brown fox jumps over the lazy dog. ".repeat(23).slice(0, 1024);
const ROUTED_TO = "gpt-5-nano";
const CONNECTIONS = 50;

function call(key: string, model: string, extra: Record<string, string> = {}): LoadRequest {
  return {
    method: "POST",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...extra },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: "user", content: PROMPT }] }),
  };
}

const calls = (key: string) => ({
  named: call(key, ROUTED_TO),
  routed: call(key, "gateway/auto", { "x-gw-route": "cost" }),
});

/** `median (min-max)` of a list of µs. */
const spread = (v: number[]) => `${median(v).toFixed(1)} (${Math.min(...v).toFixed(1)}-${Math.max(...v).toFixed(1)})`;

async function inProcess(): Promise<void> {
  // The provider answers both calls with the named model's answer: the routed call picks that model.
  const gw = await gatewayInProcess(await capture(call(PROVIDER_KEY, ROUTED_TO)));
  try {
    const cpuPer = (send: Send, n: number) => cpuPerCall(send, n, CONNECTIONS);
    const { named, routed } = calls(gw.apiKey);
    const send = { named: inProcessSender(gw.app, named), routed: inProcessSender(gw.app, routed) };
    const n = Number(args.requests);
    if (args.only === "named" || args.only === "routed") {
      await cpuPer(send[args.only], n);
      console.log(`${args.only}: ${(await cpuPer(send[args.only], n * 4)).toFixed(1)} µs of CPU per call`);
      return;
    }
    await cpuPer(send.named, n);
    await cpuPer(send.routed, n);
    const a: number[] = [];
    const b: number[] = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      a.push(await cpuPer(send.named, n));
      b.push(await cpuPer(send.routed, n));
    }
    console.log(
      `in process, µs of CPU per call, median (range) of ${a.length} rounds: named ${spread(a)}, routed ${spread(b)}, routed - named ${spread(b.map((v, i) => v - a[i]!))}`,
    );
  } finally {
    await gw.close();
  }
}

async function overHttp(): Promise<void> {
  const started = new Started();
  try {
    const mock = started.add(await startMock());
    const gw = await gatewayTarget("gateway", "gateway", mock.url, undefined, OPEN_RATE_LIMIT);
    started.add(gw.proc);
    const kinds: Record<string, LoadRequest> = {
      "gpt-4o": call(gw.target.credentials.live, "gpt-4o"),
      ...calls(gw.target.credentials.live),
    };
    const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    const opts = { connections: CONNECTIONS, seconds: Number(args.seconds), expectStatus: 200 };
    for (const req of Object.values(kinds)) await runLoad(gw.target.url, req, { ...opts, seconds: 2 });
    for (let round = 0; round < Number(args.rounds); round++)
      for (const [kind, req] of Object.entries(kinds)) {
        const before = cpuMicros(gw.target.pid);
        const load = await runLoad(gw.target.url, req, opts);
        if (load.errors) throw new Error(`${kind}: ${load.errors} errors`);
        cpu[kind]!.push((cpuMicros(gw.target.pid) - before) / load.requests);
      }
    const routed = cpu.routed!;
    console.log(
      `over HTTP, µs of the gateway's CPU per request, median (range) of ${routed.length} rounds: ${Object.entries(cpu)
        .map(([k, v]) => `${k} ${spread(v)}`)
        .join(
          ", ",
        )}; routed - named ${spread(routed.map((v, i) => v - cpu.named![i]!))}; routed - gpt-4o ${spread(routed.map((v, i) => v - cpu["gpt-4o"]![i]!))}`,
    );
  } finally {
    await started.stopAll();
  }
}

await (args.http ? overHttp() : inProcess());
