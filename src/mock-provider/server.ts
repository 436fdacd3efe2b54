/**
 * `gateway mock-provider`: a fake upstream on loopback for benchmarks, tests and trying
 * the gateway with no real keys. Accepts any key. Model names steer it, so tests can
 * reach every path through the gateway:
 *   `fail-<status>`   answers with that HTTP status and a provider-style error;
 *   `slow-<ms>`       waits that long before answering;
 *   `swap-<model>`    answers claiming to be <model> (substitution);
 *   `dated-<model>`   answers as a dated snapshot of the requested name (`dated-x-2024-08-06`);
 * `/_mock/requests` lists the last requests it saw (method, path, auth headers, body)
 * and `/_mock/stats` counts streams started, finished and cancelled by the client.
 */
import { openAiError, simulatedChatCompletion, simulatedEmbeddings, simulatedModelList } from "../simulator/openai-format.ts";

export interface MockProviderOptions {
  host: string;
  port: number;
  latencyMs: number;
}

const MODELS = ["gpt-4o", "gpt-4o-mini", "text-embedding-3-small", "mock-model"];
const KEEP_REQUESTS = 50;

interface SeenRequest {
  method: string;
  path: string;
  authorization: string | null;
  apiKey: string | null;
  body: unknown;
}

async function readBody(request: Request): Promise<Record<string, any> | null> {
  try {
    const body = await request.json();
    return typeof body === "object" && body !== null ? body : null;
  } catch {
    return null;
  }
}

export function startMockProvider(opts: MockProviderOptions) {
  const seen: SeenRequest[] = [];
  const stats = { streamsStarted: 0, streamsFinished: 0, streamsCancelled: 0 };

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

  return Bun.serve({
    hostname: opts.host,
    port: opts.port,
    async fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname === "/_mock/requests") return Response.json(seen);
      if (pathname === "/_mock/stats") return Response.json(stats);
      if (pathname === "/healthz") return new Response("ok");
      const body = request.method === "POST" ? await readBody(request) : null;
      seen.push({ method: request.method, path: pathname, authorization: request.headers.get("authorization"), apiKey: request.headers.get("api-key") ?? request.headers.get("x-api-key"), body });
      if (seen.length > KEEP_REQUESTS) seen.shift();

      const model = typeof body?.model === "string" ? body.model : "";
      const fail = /^fail-(\d{3})$/.exec(model);
      // Real providers often quote the key they rejected; so does the mock, so tests can prove the gateway cuts it out.
      const presented = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? request.headers.get("api-key") ?? "";
      if (fail) return openAiError(Number(fail[1]), `mock provider failure ${fail[1]} for key ${presented}`, Number(fail[1]) >= 500 ? "server_error" : "invalid_request_error");
      const slow = /^slow-(\d+)$/.exec(model);
      const delayMs = slow ? Number(slow[1]) : opts.latencyMs;
      const answeredModel = /^swap-(.+)$/.exec(model)?.[1] ?? (model.startsWith("dated-") ? `${model}-2024-08-06` : undefined);

      if (request.method === "POST" && /\/chat\/completions$/.test(pathname)) {
        if (!body || typeof body.model !== "string" || !Array.isArray(body.messages)) return openAiError(400, "model and messages are required");
        const res = await simulatedChatCompletion(body as never, { delayMs, answeredModel });
        return body.stream ? counted(res) : res;
      }
      if (request.method === "POST" && /\/embeddings$/.test(pathname)) {
        if (!body || typeof body.model !== "string" || body.input === undefined) return openAiError(400, "model and input are required");
        if (delayMs > 0) await Bun.sleep(delayMs);
        return simulatedEmbeddings(body as never);
      }
      if (request.method === "GET" && /\/models$/.test(pathname)) return simulatedModelList(MODELS);
      return openAiError(404, `mock provider has no route ${request.method} ${pathname}`, "not_found_error");
    },
  });
}
