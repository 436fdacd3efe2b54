/**
 * `gateway mock-provider`: a fake upstream on loopback for benchmarks, tests and trying
 * the gateway with no real keys. Accepts any key. `--latency-ms` delays each answer
 * (spread across the chunks of a stream).
 */
import { chatCompletion, embeddings, models, openAiError } from "./openai-routes.ts";

export interface MockProviderOptions {
  host: string;
  port: number;
  latencyMs: number;
}

async function body(request: Request): Promise<any> {
  try {
    return await request.json();
  } catch {
    return null;
  }
}

export function startMockProvider(opts: MockProviderOptions) {
  return Bun.serve({
    hostname: opts.host,
    port: opts.port,
    async fetch(request) {
      const { pathname } = new URL(request.url);
      const delay = opts.latencyMs;
      if (request.method === "POST" && pathname === "/v1/chat/completions") {
        const req = await body(request);
        if (delay > 0 && !req?.stream) await Bun.sleep(delay);
        return chatCompletion(req, delay);
      }
      if (request.method === "POST" && pathname === "/v1/embeddings") {
        const req = await body(request);
        if (delay > 0) await Bun.sleep(delay);
        return embeddings(req);
      }
      if (request.method === "GET" && pathname === "/v1/models") return models();
      if (pathname === "/healthz") return new Response("ok");
      return openAiError(404, `mock provider has no route ${request.method} ${pathname}`, "not_found_error");
    },
  });
}
