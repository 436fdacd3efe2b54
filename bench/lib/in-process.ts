/**
 * The gateway with the network taken out, for the in-process benchmarks: the real
 * runtime and app (every stage, the usage flush to SQLite, the log line built) handle
 * Requests in this process, and the provider's fetch is answered from memory with the
 * mock's own bytes, on the event loop's next turn. Beside it, the same Request and
 * answer with nothing between them (the harness, whose cost the benchmarks subtract)
 * and the minimal path (bench/lib/minimal-path.ts: the required stages alone, flat).
 */
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { createRuntime } from "../../src/runtime.ts";
import { type Scenario, SCENARIOS } from "../scenarios.ts";
import type { LoadRequest } from "./load.ts";
import { createMinimalPath } from "./minimal-path.ts";
import { newDataDir, PROVIDER_KEY, runGatewayCli, startMock } from "./processes.ts";
import { OPEN_RATE_LIMIT } from "./targets.ts";

/** One request, start to end (its answer read); throws on an unexpected status. */
export type Send = () => Promise<void>;

/** The CPU time (µs, user and system) this process spends per call: `calls` sends, `concurrency` at a time. */
export async function cpuPerCall(send: Send, calls: number, concurrency: number): Promise<number> {
  let left = calls;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await send();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

export interface InProcess {
  scenario: Scenario;
  gateway: Send;
  /** The same Request and answer objects, no gateway between them. */
  harness: Send;
  /** The minimal path; it has one route, chat completions answered whole, so null for other scenarios. */
  minimal: Send | null;
  /** Flushes the usage buffer, stops both paths and removes the data directory. */
  close(): Promise<void>;
}

/** The mock's answer to `req`, captured once: what the in-memory provider replays. */
export interface Canned {
  status: number;
  headers: [string, string][];
  body: string;
}

export async function capture(req: LoadRequest): Promise<Canned> {
  const mock = await startMock();
  try {
    const res = await fetch(`${mock.url}${req.path}`, {
      method: req.method,
      headers: { ...req.headers, authorization: `Bearer ${PROVIDER_KEY}` },
      body: asTheGatewaySends(req),
    });
    return {
      status: res.status,
      // Content-Length kept, as the provider sends it: the gateway reads a whole answer of a known length whole.
      headers: [...res.headers].filter(([k]) => k !== "date"),
      body: await res.text(),
    };
  } finally {
    await mock.stop();
  }
}

/**
 * The body as the gateway forwards it, where that changes the answer: a chat stream is
 * sent with `include_usage` (chat-call.ts), so a provider ends it with a usage chunk.
 * Replaying the answer to the caller's body instead would measure a stream without
 * usage, which the gateway charges by estimating the prompt: a path real providers
 * never take.
 */
function asTheGatewaySends(req: LoadRequest): string | undefined {
  if (!req.body || !req.path.endsWith("/chat/completions")) return req.body;
  const body = JSON.parse(req.body) as { stream?: boolean; stream_options?: { include_usage?: boolean } };
  if (body.stream !== true || body.stream_options?.include_usage === true) return req.body;
  return JSON.stringify({ ...body, stream_options: { ...body.stream_options, include_usage: true } });
}

// A documentation address (never routed): the egress policy checks a literal address without DNS,
// allows it with GW_ALLOW_PRIVATE_PROVIDERS, and fetch below answers it from memory.
const PROVIDER_BASE = "http://192.0.2.1:9";

/**
 * The canned answer, given on the event loop's next turn, as a provider's answer comes
 * in as an I/O event. Given at once, a call would never leave the microtask queue, no
 * timer would fire while calls run, and the gateway's timed work (the metrics and log
 * line recorded 1 ms after a response, the usage flush) would wait for the end of the
 * round instead of being counted in it, with every request it refers to kept alive.
 */
async function answer(canned: Canned): Promise<Response> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  return new Response(canned.body, { status: canned.status, headers: canned.headers });
}

/** As a client sends it: with its Content-Length (a server's Request has one; a built one does not). */
export function requestBuilder(req: LoadRequest, authorization?: string): () => Request {
  const headers = {
    ...req.headers,
    ...(authorization ? { authorization } : {}),
    "content-length": String(Buffer.byteLength(req.body ?? "")),
  };
  const { bodyAt } = req;
  if (bodyAt) {
    // A numbered scenario: a new body for every request built.
    let n = 0;
    return () => {
      const body = bodyAt(n++);
      return new Request(`http://localhost${req.path}`, {
        method: req.method,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        body,
      });
    };
  }
  return () => new Request(`http://localhost${req.path}`, { method: req.method, headers, body: req.body });
}

async function minimalPath(req: LoadRequest, canned: Canned): Promise<{ send: Send; close(): Promise<void> } | null> {
  if (req.path !== "/v1/chat/completions" || req.body?.includes('"stream":true')) return null;
  const path = await createMinimalPath({ upstream: PROVIDER_BASE, stages: "all", fetch: () => answer(canned), writeLog: () => {} });
  const build = requestBuilder(req, `Bearer ${PROVIDER_KEY}`);
  const send = async () => {
    const res = await path.handle(build());
    if (res.status !== 200) throw new Error(`minimal path: status ${res.status}: ${await res.text()}`);
    await res.text();
  };
  return { send, close: () => path.close() };
}

export interface GatewayInProcess {
  app: ReturnType<typeof createApp>;
  /** The organization's admin key, for calls and operations. */
  apiKey: string;
  /** Flushes the usage buffer, restores fetch, shuts the runtime down and removes the data directory. */
  close(): Promise<void>;
}

/**
 * The real runtime and app in this process, an organization with an OpenAI and an
 * Anthropic configuration at PROVIDER_BASE, and every fetch to it answered with
 * `canned` on the event loop's next turn (or by `respond`, for an answer given in pieces).
 */
export async function gatewayInProcess(canned: Canned, respond: () => Promise<Response> = () => answer(canned)): Promise<GatewayInProcess> {
  const data = newDataDir();
  const init = JSON.parse(
    await runGatewayCli(["init", "--data", data.dir, "--org", "Bench", "--email", "bench@example.com", "--json"]),
  ) as { apiKey: string };
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(PROVIDER_BASE)) return realFetch(input, init);
    return respond();
  }) as typeof fetch;

  const config = loadConfig({ data: data.dir }, { ...process.env, GW_ALLOW_PRIVATE_PROVIDERS: "1", ...OPEN_RATE_LIMIT });
  // The log line is built as in production; only its write to stdout is dropped.
  const rt = await createRuntime(
    config,
    createLogger(config.logLevel, () => {}),
  );
  const app = createApp(rt);
  const close = async () => {
    await rt.usage.flush();
    globalThis.fetch = realFetch;
    await rt.shutdown();
    data.remove();
  };
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
    await op("provider.create", { provider: "openai", apiKey: PROVIDER_KEY, baseUrl: `${PROVIDER_BASE}/v1`, scope: "organization" });
    await op("provider.create", { provider: "anthropic", apiKey: PROVIDER_KEY, baseUrl: PROVIDER_BASE, scope: "organization" });
  } catch (err) {
    await close();
    throw err;
  }
  return { app, apiKey: init.apiKey, close };
}

/** Sends `req` to the app in process and reads the answer; throws on another status. */
export function inProcessSender(app: GatewayInProcess["app"], req: LoadRequest, expectStatus = 200): Send {
  const build = requestBuilder(req);
  return async () => {
    const res = await app.handle(build());
    if (res.status !== expectStatus) throw new Error(`status ${res.status}: ${await res.text()}`);
    await res.text();
  };
}

export async function openInProcess(scenarioId = "chat-1k-50"): Promise<InProcess> {
  const scenario = SCENARIOS.find((s) => s.id === scenarioId && s.mode === "load");
  if (!scenario) throw new Error(`no load scenario ${scenarioId}`);
  const upstream = scenario.request({ live: PROVIDER_KEY, test: PROVIDER_KEY });
  // A routed scenario's provider is sent the chosen model, and answers as it.
  if (scenario.answeredModel && upstream.body)
    upstream.body = JSON.stringify({ ...JSON.parse(upstream.body), model: scenario.answeredModel });
  const canned = await capture(upstream);
  const gw = await gatewayInProcess(canned);
  const init = { apiKey: gw.apiKey };
  const closeGateway = gw.close;

  const req = scenario.request({ live: init.apiKey, test: init.apiKey });
  const build = requestBuilder(req);
  // The minimal path names its model; a routed scenario has none to compare against.
  const minimal = await (scenario.answeredModel ? Promise.resolve(null) : minimalPath(req, canned)).catch(async (err) => {
    await closeGateway();
    throw err;
  });
  return {
    scenario,
    gateway: inProcessSender(gw.app, req, scenario.expectStatus),
    harness: async () => {
      build();
      await (await fetch(`${PROVIDER_BASE}/v1/chat/completions`)).text();
    },
    minimal: minimal?.send ?? null,
    async close() {
      await minimal?.close();
      await closeGateway();
    },
  };
}
