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
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/http/app.ts";
import { createLogger } from "../src/lib/log.ts";
import { createRuntime } from "../src/runtime.ts";
import { type LoadRequest, runLoad } from "./lib/load.ts";
import { cpuMicros } from "./lib/proc-stats.ts";
import { newDataDir, PROVIDER_KEY, runGatewayCli, Started, startMock } from "./lib/processes.ts";
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
  const base = "http://192.0.2.1:9";
  const mock = await startMock();
  const named = call(PROVIDER_KEY, ROUTED_TO);
  const upstream = await fetch(`${mock.url}${named.path}`, { method: "POST", headers: named.headers, body: named.body });
  const canned = {
    status: upstream.status,
    headers: [...upstream.headers].filter(([k]) => k !== "content-length" && k !== "date"),
    body: await upstream.text(),
  };
  await mock.stop();
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(base)) return realFetch(input, init);
    // On the event loop's next turn, as a provider's answer comes in (bench/lib/in-process.ts says why).
    await new Promise<void>((resolve) => setImmediate(resolve));
    return new Response(canned.body, { status: canned.status, headers: canned.headers });
  }) as typeof fetch;

  const data = newDataDir();
  const init = JSON.parse(
    await runGatewayCli(["init", "--data", data.dir, "--org", "Bench", "--email", "bench@example.com", "--json"]),
  ) as { apiKey: string };
  const config = loadConfig({ data: data.dir }, { ...process.env, GW_ALLOW_PRIVATE_PROVIDERS: "1", ...OPEN_RATE_LIMIT });
  const rt = await createRuntime(
    config,
    createLogger(config.logLevel, () => {}),
  );
  const app = createApp(rt);
  try {
    const op = async (operation: string, params: object) => {
      const res = await app.handle(
        new Request("http://localhost/api/v1/gateway", {
          method: "POST",
          headers: { authorization: `Bearer ${init.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ operation, params }),
        }),
      );
      if (res.status !== 200) throw new Error(`${operation}: ${await res.text()}`);
    };
    await op("provider.create", { provider: "openai", apiKey: PROVIDER_KEY, baseUrl: `${base}/v1`, scope: "organization" });
    await op("provider.create", { provider: "anthropic", apiKey: PROVIDER_KEY, baseUrl: base, scope: "organization" });

    const sender = (req: LoadRequest) => {
      const headers = { ...req.headers, "content-length": String(Buffer.byteLength(req.body ?? "")) };
      return async () => {
        const res = await app.handle(new Request(`http://localhost${req.path}`, { method: req.method, headers, body: req.body }));
        if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
        await res.text();
      };
    };
    const cpuPerCall = async (send: () => Promise<void>, n: number) => {
      let left = n;
      const before = process.cpuUsage();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (left-- > 0) await send();
        }),
      );
      const used = process.cpuUsage(before);
      return (used.user + used.system) / n;
    };
    const { named, routed } = calls(init.apiKey);
    const send = { named: sender(named), routed: sender(routed) };
    const n = Number(args.requests);
    if (args.only === "named" || args.only === "routed") {
      await cpuPerCall(send[args.only], n);
      console.log(`${args.only}: ${(await cpuPerCall(send[args.only], n * 4)).toFixed(1)} µs of CPU per call`);
      return;
    }
    await cpuPerCall(send.named, n);
    await cpuPerCall(send.routed, n);
    const a: number[] = [];
    const b: number[] = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      a.push(await cpuPerCall(send.named, n));
      b.push(await cpuPerCall(send.routed, n));
    }
    console.log(
      `in process, µs of CPU per call, median (range) of ${a.length} rounds: named ${spread(a)}, routed ${spread(b)}, routed - named ${spread(b.map((v, i) => v - a[i]!))}`,
    );
  } finally {
    await rt.usage.flush();
    globalThis.fetch = realFetch;
    await rt.shutdown();
    data.remove();
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
