/**
 * A lower bound for the budget: the chat-completions path with only the stages every
 * request must pay for, using the gateway's own modules, written flat with no
 * framework, no runner, no adapters and no layers. It is not a gateway anyone should
 * run (one route, one key, one provider, errors in no envelope), only the answer to
 * "what do the required stages cost on this runtime when nothing else does".
 * Served by bench/minimal-gateway.ts; run in process by bench/pipeline.bench.ts.
 *
 * Stages, each switched on by name ("all" for every one):
 *   auth   the key's HMAC and a lookup (the key cache's own work)
 *   rate   a token-bucket take
 *   json   the body parsed and validated (TypeBox), serialized again to forward; the
 *          answer parsed and its model compared with the one asked for (substitution)
 *   scan   the security scanner over the request's texts (needs json)
 *   usage  a usage event into the write-behind buffer, flushed to SQLite (needs json)
 *   log    the access-log line
 * Left out, each an in-memory lookup of well under a microsecond in the real gateway:
 * provider authorization by country, spend caps, pricing. With no stage it is a
 * pass-through proxy that reads the body whole.
 *
 * Pieces of the gateway's own structure can be added by name too, one at a time, to
 * price each served (`bench/floor.ts --structure`); "all" does not include them:
 *   framework  served through an Elysia app built as the gateway's is (bench/minimal-gateway.ts)
 *   watch      the provider called through the gateway's sendUpstream (its deadline and
 *              departed-client watch) instead of fetch with the client's signal
 *   frame      the request runner's frame: a request id, the client's address, and the
 *              four headers every gateway response carries (id and rate limit)
 */
import type { Server } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chatCompletionRequest } from "../../src/schemas/chat-completions.ts";
import { ApiKeyHasher } from "../../src/domain/api-key.ts";
import { newId } from "../../src/domain/ids.ts";
import { createLogger } from "../../src/lib/log.ts";
import { setEgressPolicy } from "../../src/lib/egress/egress-policy.ts";
import { sendUpstream } from "../../src/providers/upstream.ts";
import { chatTexts } from "../../src/pipeline/scan/request-texts.ts";
import { scanRequest } from "../../src/pipeline/security-scan.ts";
import { TokenBucketLimiter } from "../../src/state/rate-limiter.ts";
import { UsageBuffer } from "../../src/state/usage-buffer.ts";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.ts";
import { PROVIDER_KEY } from "./processes.ts";

export const MINIMAL_STAGES = ["auth", "rate", "json", "scan", "usage", "log"] as const;
export const STRUCTURE_PIECES = ["framework", "watch", "frame"] as const;
export type MinimalStage = (typeof MINIMAL_STAGES)[number] | (typeof STRUCTURE_PIECES)[number];
const KNOWN: readonly string[] = [...MINIMAL_STAGES, ...STRUCTURE_PIECES];

export interface MinimalPathOptions {
  /** The provider's base address (the mock's). */
  upstream: string;
  /** "+"-separated stage (and structure piece) names, or "all". */
  stages: string;
  /** How the provider is called: the runtime's fetch, or an in-memory answer. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Where log lines go (stdout by default). */
  writeLog?: (chunk: string) => void;
}

export interface MinimalPath {
  handle(request: Request, server?: Server<unknown>): Promise<Response>;
  /** Serve through the framework (the "framework" piece). */
  framework: boolean;
  /** Flushes the usage buffer and removes the data folder. */
  close(): Promise<void>;
}

export async function createMinimalPath(opts: MinimalPathOptions): Promise<MinimalPath> {
  const stages = new Set(opts.stages.split("+"));
  const unknown = [...stages].filter((s) => s !== "all" && s !== "none" && !KNOWN.includes(s));
  if (unknown.length) throw new Error(`unknown stages: ${unknown.join(", ")} (known: ${KNOWN.join(", ")}, all, none)`);
  // Resolved once: `on` runs several times a request on the path this file measures.
  const enabled = new Set<string>(stages.has("all") ? [...MINIMAL_STAGES, ...stages] : stages);
  const on = (stage: MinimalStage) => enabled.has(stage);
  // sendUpstream calls the runtime's fetch: the watch can only be priced served.
  if (opts.fetch && on("watch"))
    throw new Error("the watch piece calls the provider with the runtime's fetch; it cannot run with an in-memory answer");
  const send = opts.fetch ?? ((url, init) => fetch(url, init));
  // The mock is on loopback, which the egress policy allows only when the operator says so.
  if (on("watch")) setEgressPolicy({ allowPrivate: true });
  const providerHeaders = { "content-type": "application/json", authorization: `Bearer ${PROVIDER_KEY}` };

  const hasher = new ApiKeyHasher(new Uint8Array(32).fill(7));
  const caller = { orgId: newId("org"), keyId: newId("key"), userId: newId("usr") };
  const keys = new Map([[hasher.hash(PROVIDER_KEY), caller]]);
  const limiter = new TokenBucketLimiter({ limit: 1e9, windowS: 1 });
  const dataDir = mkdtempSync(join(tmpdir(), "gw-minimal-"));
  const store = new SqliteStore(join(dataDir, "gateway.sqlite"));
  await store.migrate();
  const usage = new UsageBuffer({ write: (batch) => store.writeFlush(batch), intervalMs: 250, maxEvents: 1000 });
  const log = createLogger("info", opts.writeLog);

  /** The provider's answer: status and body text. */
  async function call(request: Request, body: string): Promise<{ status: number; text: string }> {
    const url = `${opts.upstream}/v1/chat/completions`;
    if (on("watch")) {
      const up = await sendUpstream(
        { url, method: "POST", headers: providerHeaders, body },
        { caller: request, timeoutMs: 600_000, providerName: "the mock" },
      );
      try {
        return { status: up.response.status, text: await up.response.text() };
      } finally {
        up.done();
      }
    }
    const res = await send(url, { method: "POST", headers: providerHeaders, body, signal: request.signal });
    return { status: res.status, text: await res.text() };
  }

  async function handle(request: Request, server?: Server<unknown>): Promise<Response> {
    const startedAt = Date.now();
    const frame = on("frame") ? { requestId: crypto.randomUUID(), ip: server?.requestIP(request)?.address ?? "unknown" } : null;
    const presented = request.headers.get("authorization")?.slice(7) ?? "";
    const who = on("auth") ? keys.get(hasher.hash(presented)) : caller;
    if (!who) return new Response('{"error":{"message":"bad key"}}', { status: 401 });
    if (on("rate")) limiter.take(who.keyId);
    const text = await request.text();
    const body = on("json") ? (chatCompletionRequest.parse(JSON.parse(text)) as Record<string, unknown> & { model: string }) : null;
    if (body && on("scan")) scanRequest(body, chatTexts, "block");
    const res = await call(request, body ? JSON.stringify(body) : text);
    const answerText = res.text;
    if (body) {
      const answer = JSON.parse(answerText) as { model: string; usage: { prompt_tokens: number; completion_tokens: number } };
      if (answer.model !== body.model) return new Response('{"error":{"message":"model substituted"}}', { status: 502 });
      if (on("usage")) {
        usage.record({
          id: newId("evt"),
          requestId: crypto.randomUUID(),
          ...who,
          provider: "openai",
          model: body.model,
          promptTokens: answer.usage.prompt_tokens,
          completionTokens: answer.usage.completion_tokens,
          costMicros: 10,
          latencyMs: Date.now() - startedAt,
          status: res.status,
          errorCode: null,
          createdAt: startedAt,
        });
      }
    }
    if (on("log"))
      log.info("request", {
        requestId: frame?.requestId ?? "-",
        method: "POST",
        route: "/v1/chat/completions",
        status: res.status,
        durationMs: Date.now() - startedAt,
        ip: frame?.ip ?? "127.0.0.1",
        ...who,
      });
    const response = new Response(answerText, { status: res.status, headers: { "content-type": "application/json" } });
    if (frame) {
      // As the runner sets them (src/http/request-runner.ts), on the response built.
      const h = response.headers;
      h.set("x-request-id", frame.requestId);
      h.set("x-ratelimit-limit", "1000000000");
      h.set("x-ratelimit-remaining", "999999999");
      h.set("x-ratelimit-reset", String(Math.ceil(startedAt / 1000)));
    }
    return response;
  }

  return {
    handle,
    framework: on("framework"),
    async close() {
      await usage.flush();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
