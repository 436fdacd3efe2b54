/**
 * `gateway mock-provider`: a fake upstream on loopback for benchmarks, tests and trying
 * the gateway with no real keys. It speaks the chat-completions family
 * (`/v1/chat/completions`, `/v1/embeddings`, `/v1/models`, Azure's deployment and v1 paths),
 * the Responses API (`/v1/responses`), the messages format (`/v1/messages`, and its
 * `/v1/messages/count_tokens`) and the cloud platform's invoke paths
 * (`/model/{id}/invoke`, `/model/{id}/invoke-with-response-stream`, binary event
 * stream), whose SigV4 signature shape it checks. Any key is accepted. Model names
 * steer it, so tests can reach every path through the gateway:
 *   `fail-<status>`   answers with that HTTP status and a provider-style error;
 *   `slow-<ms>`       waits that long before answering;
 *   `swap-<model>`    answers claiming to be <model> (substitution);
 *   `dated-<model>`   answers as a dated snapshot of the requested name (`dated-x-2024-08-06`);
 *   `garbled-<model>` answers a plain (non-stream) call with the first half of its body only;
 *   `fault-<name>`    answers with that misbehaviour in the route's format (fault-plan.ts), also
 *                     asked for as an end user `fault-<name>`, for a model the catalog must price;
 * a base URL under `/fault-oversized-<MiB>` answers model lists and token counts that large (oversized-answer.ts),
 * one under `/listing-<N>` a messages-family model list of N models, in pages (messages-models.ts);
 * an end user (`user`, `metadata.user_id`) `cache-r<reads>-w<writes>[-h<1-hour writes>]` reports
 * that many prompt tokens read from and written to the prompt cache (cache-steer.ts);
 * a chat call's end user `thought-signature` gets Google's thought signatures on its tool calls
 * and is refused when an earlier call comes back without its own (thought-signature-steer.ts);
 * a Responses call's `mcp` tool with `require_approval: "never"` is run as OpenAI runs it (hosted-mcp.ts);
 * `/_mock/requests` lists the last requests it saw (method, path, full url with query,
 * every header, body) and `/_mock/stats` counts streams started, finished and
 * cancelled by the client, by model plain chat calls whose client hung up before their answer,
 * and the bytes of oversized answers made.
 */
import { simulatedMessagesResponse, simulatedPlatformStream } from "../simulator/messages-format.ts";
import { openAiError, simulatedChatCompletion, simulatedEmbeddings, simulatedModelList } from "../simulator/openai-format.ts";
import { ResponsesMemory, simulatedResponses } from "../simulator/responses-format.ts";
import { mockCountTokens } from "./responses-routes.ts";
import { hostedMcpAnswer } from "./hosted-mcp.ts";
import { sigV4Problem } from "./sigv4-shape.ts";
import { messagesError, platformError } from "./vendor-errors.ts";
import { listedIds, messagesModelList } from "./messages-models.ts";
import { azureAnsweredModel, azureChatAnswer, azureRefusal, isAzurePath } from "./azure-shape.ts";
import { platformAnswerModel } from "./platform-model.ts";
import { reasoningLimitRefusal } from "./reasoning-limits.ts";
import { cacheSteer } from "./cache-steer.ts";
import { serviceTierEcho } from "./service-tier-echo.ts";
import { missingSignature, thoughtSignatureSteer, withThoughtSignatures } from "./thought-signature-steer.ts";
import { faultNames, faultPlan, faultSteer, sendPlan, userFaultSteer } from "./fault-plan.ts";
import type { FaultFamily } from "./fault-types.ts";
import { oversizedShape, oversizedSteer, sendOversized } from "./oversized-answer.ts";

export interface MockProviderOptions {
  host: string;
  port: number;
  latencyMs: number;
  /** How many delta chunks a stream's answer is split into; one a word when unset. */
  streamChunks?: number;
  /** When set, model answers report a per-minute request limit of this size in rate-limit headers, as real providers do. */
  rateLimitRequests?: number;
}

const MODELS = ["gpt-4o", "gpt-4o-mini", "text-embedding-3-small", "mock-model"];
const KEEP_REQUESTS = 50;
const PLATFORM_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;

/** What `/_mock/requests` lists for each request the mock saw. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The path with its query string, as sent (`api-version` and the like are checked here). */
  url: string;
  /** Every request header, names lower-cased. */
  headers: Record<string, string>;
  authorization: string | null;
  apiKey: string | null;
  version: string | null;
  amzDate: string | null;
  body: unknown;
}

function parse(text: string): Record<string, any> | null {
  try {
    const body = JSON.parse(text);
    return typeof body === "object" && body !== null ? body : null;
  } catch {
    return null;
  }
}

/** The first half of an answer's body, with its status and headers: a provider (or a proxy before it) that garbles. */
async function halved(res: Response): Promise<Response> {
  const text = await res.text();
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(text.slice(0, text.length >> 1), { status: res.status, headers });
}

export function startMockProvider(opts: MockProviderOptions) {
  const seen: SeenRequest[] = [];
  const stats = {
    streamsStarted: 0,
    streamsFinished: 0,
    streamsCancelled: 0,
    abandonedByModel: {} as Record<string, number>,
    // Bytes of oversized answers made so far (oversized-answer.ts).
    oversizedBytes: 0,
  };
  const responses = new ResponsesMemory();

  /** A call whose client (the gateway) hung up while the mock took its time: counted, so tests see the gateway let go. */
  const abandoned = (model: string) => {
    stats.abandonedByModel[model] = (stats.abandonedByModel[model] ?? 0) + 1;
  };
  const noteAbandoned = (request: Request, model: string, res: Response): Response => {
    if (request.signal.aborted) abandoned(model);
    return res;
  };

  /** Counts how a stream ended: read to the end, or cancelled by the reader (the gateway's client left). */
  const counted = (res: Response): Response => {
    if (!res.body) return res;
    stats.streamsStarted++;
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        const { done, value } = await reader.read();
        if (done) {
          stats.streamsFinished++;
          c.close();
        } else c.enqueue(value);
      },
      cancel() {
        stats.streamsCancelled++;
        return reader.cancel();
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };

  // Requests counted per minute, for the rate-limit headers.
  const window = { minute: 0, used: 0 };
  const reportLimits = (res: Response | Promise<Response>, messagesFamily: boolean): Promise<Response> =>
    Promise.resolve(res).then((r) => {
      const limit = opts.rateLimitRequests;
      if (limit === undefined) return r;
      const now = Date.now();
      const minute = Math.floor(now / 60_000);
      if (window.minute !== minute) Object.assign(window, { minute, used: 0 });
      window.used++;
      const remaining = String(Math.max(0, limit - window.used));
      const resetMs = (minute + 1) * 60_000 - now;
      if (messagesFamily) {
        r.headers.set("anthropic-ratelimit-requests-limit", String(limit));
        r.headers.set("anthropic-ratelimit-requests-remaining", remaining);
        r.headers.set("anthropic-ratelimit-requests-reset", new Date(now + resetMs).toISOString());
      } else {
        r.headers.set("x-ratelimit-limit-requests", String(limit));
        r.headers.set("x-ratelimit-remaining-requests", remaining);
        r.headers.set("x-ratelimit-reset-requests", `${(resetMs / 1000).toFixed(3)}s`);
      }
      return r;
    });

  return Bun.serve({
    hostname: opts.host,
    port: opts.port,
    async fetch(request) {
      const { pathname, search } = new URL(request.url);
      if (pathname === "/_mock/requests") return Response.json(seen);
      if (pathname === "/_mock/stats") return Response.json(stats);
      if (pathname === "/healthz") return new Response("ok");
      const text = request.method === "POST" ? await request.text() : "";
      const body = request.method === "POST" ? parse(text) : null;
      const h = request.headers;
      seen.push({
        method: request.method,
        path: pathname,
        url: pathname + search,
        headers: Object.fromEntries(h),
        authorization: h.get("authorization"),
        apiKey: h.get("api-key") ?? h.get("x-api-key"),
        version: h.get("anthropic-version"),
        amzDate: h.get("x-amz-date"),
        body,
      });
      if (seen.length > KEEP_REQUESTS) seen.shift();

      // A base URL under `/fault-oversized-<MiB>` answers a document of that size (oversized-answer.ts).
      const oversized = oversizedSteer(pathname);
      if (oversized) {
        const shape = oversizedShape(request.method, oversized.rest, oversized.mib);
        if (!shape)
          return openAiError(
            404,
            `mock provider answers fault-oversized only on a model list and a token count, not ${request.method} ${oversized.rest}`,
            "not_found_error",
          );
        return sendOversized(shape, (bytes) => {
          stats.oversizedBytes += bytes;
        });
      }

      const platform = PLATFORM_PATH.exec(pathname);
      const model = platform ? decodeURIComponent(platform[1] as string) : typeof body?.model === "string" ? body.model : "";
      // Real providers often quote the key they rejected; so does the mock, so tests can prove the gateway cuts it out.
      const presented = h.get("authorization")?.replace(/^Bearer /, "") ?? h.get("api-key") ?? h.get("x-api-key") ?? "";
      // Azure's deployment paths want their version and key before anything else (azure-shape.ts).
      const azure = isAzurePath(pathname);
      const refused = azure ? azureRefusal(pathname, search, h) : null;
      if (refused) return refused;
      const fail = /(?:^|[./])fail-(\d{3})/.exec(model);
      if (fail) {
        const status = Number(fail[1]);
        const message = `mock provider failure ${status} for key ${presented}`;
        if (platform) return platformError(status, message);
        return pathname.endsWith("/messages")
          ? messagesError(status, message)
          : openAiError(status, message, status >= 500 ? "server_error" : "invalid_request_error");
      }
      const slow = /(?:^|[./])slow-(\d+)/.exec(model);
      const delayMs = slow ? Number(slow[1]) : opts.latencyMs;
      const streamChunks = opts.streamChunks;
      // Platform ids carry an `anthropic.` prefix; the steering words follow it.
      const steer = model.replace(/^anthropic\./, "");
      const answeredModel =
        /^swap-(.+)$/.exec(steer)?.[1] ??
        (steer.startsWith("dated-") ? `${model}-2024-08-06` : azure ? azureAnsweredModel(pathname, body) : undefined);
      const fault = faultSteer(steer) ?? userFaultSteer(body);
      if (fault !== undefined && request.method === "POST") {
        const family: FaultFamily | undefined = pathname.endsWith("/messages")
          ? "messages"
          : /\/chat\/completions$/.test(pathname)
            ? "chat"
            : undefined;
        const plan = faultPlan(fault, family, { model, key: presented });
        // A body held open or without end that the client left counts as abandoned, as a plain call's does.
        if (plan) return sendPlan(plan, request.signal, () => abandoned(model));
        const known = family ? `its ${family} faults are ${faultNames(family).join(", ")}` : "only fault-hang answers on this route";
        const message = `mock provider has no fault "${fault}" here: ${known}`;
        return family === "messages" ? messagesError(400, message) : openAiError(400, message);
      }
      const garble = (res: Response) => (/(?:^|[./])garbled-/.test(model) && !body?.stream ? halved(res) : res);
      const cache = cacheSteer(body);

      if (request.method === "POST" && /\/chat\/completions$/.test(pathname)) {
        if (!body || typeof body.model !== "string" || !Array.isArray(body.messages))
          return openAiError(400, "model and messages are required");
        const limitRefused = reasoningLimitRefusal(pathname, body);
        if (limitRefused) return limitRefused;
        // End user `thought-signature`: Google's thought signatures on tool calls, wanted back (thought-signature-steer.ts).
        const signed = thoughtSignatureSteer(body);
        const unsigned = signed ? missingSignature(body) : null;
        if (unsigned) return unsigned;
        const serviceTier = serviceTierEcho(body);
        const simulated = await simulatedChatCompletion(body as never, { delayMs, answeredModel, streamChunks, cache, serviceTier });
        const plain = signed ? await withThoughtSignatures(simulated) : simulated;
        const res = azure ? await azureChatAnswer(plain) : plain;
        return reportLimits(body.stream ? counted(res) : garble(noteAbandoned(request, model, res)), false);
      }
      if (request.method === "POST" && /\/responses$/.test(pathname)) {
        if (!body) return openAiError(400, "the body must be a JSON object");
        // Stored responses belong to the key that made them, as at OpenAI.
        const owner = h.get("authorization") ?? h.get("x-api-key") ?? h.get("api-key") ?? "";
        const respond = (b: Record<string, unknown>) =>
          simulatedResponses(b, { delayMs, answeredModel, streamChunks, cache, serviceTier: serviceTierEcho(b) }, responses, owner);
        // A hosted `mcp` tool that needs no approval is run as OpenAI runs it (hosted-mcp.ts).
        const res = (await hostedMcpAnswer(body, respond)) ?? (await respond(body));
        return body.stream ? counted(res) : garble(res);
      }
      if (request.method === "POST" && pathname === "/v1/messages/count_tokens") return mockCountTokens(body ?? {});
      if (request.method === "POST" && pathname === "/v1/messages") {
        if (!h.get("x-api-key") && !h.get("authorization")) return messagesError(401, "x-api-key header is required");
        if (!h.get("anthropic-version")) return messagesError(400, "anthropic-version header is required");
        if (!body || typeof body.model !== "string" || !Array.isArray(body.messages) || typeof body.max_tokens !== "number")
          return messagesError(400, "model, messages and max_tokens are required");
        const res = await simulatedMessagesResponse(body as never, { delayMs, answeredModel, streamChunks, cache });
        return reportLimits(body.stream ? counted(res) : garble(res), true);
      }
      if (request.method === "POST" && platform) {
        const problem = sigV4Problem(request, text);
        if (problem) return platformError(403, problem, "InvalidSignatureException");
        if (!body || !Array.isArray(body.messages) || body.anthropic_version !== "bedrock-2023-05-31")
          return platformError(400, "messages and anthropic_version bedrock-2023-05-31 are required");
        const req = { ...body, model, stream: platform[2] !== "invoke" };
        const named = { delayMs, answeredModel: platformAnswerModel(answeredModel ?? model), streamChunks, cache };
        if (!req.stream) return simulatedMessagesResponse(req as never, named);
        return counted(simulatedPlatformStream(req as never, named));
      }
      if (request.method === "POST" && /\/embeddings$/.test(pathname)) {
        if (!body || typeof body.model !== "string" || body.input === undefined) return openAiError(400, "model and input are required");
        if (delayMs > 0) await Bun.sleep(delayMs);
        return garble(simulatedEmbeddings(body as never, answeredModel));
      }
      if (request.method === "GET" && pathname.endsWith("/v1/models") && h.has("anthropic-version"))
        return messagesModelList(new URLSearchParams(search), listedIds(pathname, MODELS));
      if (request.method === "GET" && /\/models$/.test(pathname)) return simulatedModelList(MODELS);
      return openAiError(404, `mock provider has no route ${request.method} ${pathname}`, "not_found_error");
    },
    // A fault in the mock should look like a provider's JSON 500, never Bun's HTML error page.
    error(err) {
      return openAiError(500, `mock provider error: ${err.message}`, "server_error");
    },
  });
}
