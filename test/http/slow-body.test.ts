/**
 * A request body that stops arriving is answered, not cut: a started gateway (body
 * timeout 1 s through GW_BODY_TIMEOUT_S) answers a body that stalls with a 408 in the
 * surface's envelope, the request id and the rate-limit headers, closes the connection
 * with it, charges nothing and calls no provider; a body that keeps coming, however
 * slowly, is read. And Bun's own idle timeout, which counts across a body still
 * arriving and cuts without an answer, is held off while a reader reads.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import type { Server } from "bun";
import type { Identity } from "../../src/domain/identity.ts";
import { HttpMetrics } from "../../src/http/http-metrics.ts";
import { RequestRunner } from "../../src/http/request-runner.ts";
import { gatewayReadOnly } from "../../src/http/surfaces/gateway-surface.ts";
import { bodyLimits, readJsonObject, SERVER_IDLE_TIMEOUT_S } from "../../src/lib/json-body.ts";
import { createLogger } from "../../src/lib/log.ts";
import { MetricsRegistry } from "../../src/lib/metrics.ts";
import { type Authenticator, OriginRequired } from "../../src/pipeline/authenticate.ts";
import { TokenBucketLimiter } from "../../src/state/rate-limiter.ts";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { InProcessGateway } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";

let gw: InProcessGateway;
let mock: RunningMock;
let org: InitResult;

beforeAll(async () => {
  const stack = await startStack({ env: { GW_BODY_TIMEOUT_S: "1" } });
  ({ mock, org } = stack);
  gw = stack.gw as InProcessGateway;
  for (const [provider, baseUrl] of [
    ["openai", `${mock.url}/v1`],
    ["anthropic", mock.url],
  ] as const)
    expect(
      (await gw.op(org.apiKey, "provider.create", { provider, apiKey: `sk-${provider}-slow-0123456789`, baseUrl, scope: "organization" }))
        .status,
    ).toBe(200);
});

afterAll(() => stopStack({ gw, mock }));

interface RawAnswer {
  /** The status line's code; 0 when the connection closed without an answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends the request head, then each part `everyMs` apart, and resolves once the server
 * closes the connection: with what it answered, if anything.
 */
function rawRequest(port: number, head: string, parts: string[], everyMs: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let out = "";
    let timer: ReturnType<typeof setInterval> | undefined;
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(head);
      let i = 0;
      timer = setInterval(() => {
        if (i < parts.length && !socket.destroyed) socket.write(parts[i++]!);
        else clearInterval(timer);
      }, everyMs);
    });
    socket.on("data", (d) => (out += d));
    socket.on("close", () => {
      clearInterval(timer);
      const split = out.indexOf("\r\n\r\n");
      if (split === -1) return resolve({ status: 0, headers: {}, body: "" });
      const [statusLine, ...lines] = out.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()] as const),
      );
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: out.slice(split + 4) });
    });
    socket.on("error", reject);
  });
}

const port = () => Number(new URL(gw.url).port);

const head = (path: string, headers: Record<string, string>) =>
  `POST ${path} HTTP/1.1\r\nhost: gateway.test\r\ncontent-type: application/json\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;

const chat = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });

describe("a body that stops arriving is a 408 in the surface's envelope", () => {
  const cases: [string, string, Record<string, string>, (body: any) => void][] = [
    [
      "chat completions (OpenAI envelope)",
      "/v1/chat/completions",
      { authorization: "Bearer KEY" },
      (body) =>
        expect(body).toEqual({
          error: {
            message: "The request body stopped arriving: nothing came for 1 seconds.",
            type: "invalid_request_error",
            code: "request_timeout",
            param: null,
          },
        }),
    ],
    [
      "messages (Anthropic envelope)",
      "/v1/messages",
      { "x-api-key": "KEY", "anthropic-version": "2023-06-01" },
      (body) =>
        expect(body).toEqual({
          type: "error",
          error: {
            type: "invalid_request_error",
            message: "The request body stopped arriving: nothing came for 1 seconds.",
            code: "request_timeout",
          },
        }),
    ],
    [
      "the gateway endpoint",
      "/api/v1/gateway",
      { authorization: "Bearer KEY" },
      (body) =>
        expect(body).toEqual({
          success: false,
          data: null,
          error: "The request body stopped arriving: nothing came for 1 seconds.",
          code: "request_timeout",
        }),
    ],
    [
      "MCP POST (JSON-RPC error)",
      "/mcp",
      { authorization: "Bearer KEY", accept: "application/json, text/event-stream" },
      (body) =>
        expect(body).toEqual({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Request Timeout: The request body stopped arriving: nothing came for 1 seconds." },
          id: null,
        }),
    ],
  ];

  for (const [name, path, headers, envelope] of cases) {
    test(name, async () => {
      const auth = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("KEY", org.apiKey)]));
      const requestId = `slow-${path.replaceAll("/", "-")}`;
      // A declared length, a start of the body, then nothing: the connection ends with the answer.
      const answer = await rawRequest(port(), head(path, { ...auth, "x-request-id": requestId, "content-length": "4000" }), ['{"mod'], 10);
      expect(answer.status).toBe(408);
      expect(answer.headers["connection"]).toBe("close");
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.headers["x-request-id"]).toBe(requestId);
      expect(answer.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
      expect(answer.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
      if (path === "/v1/messages") expect(answer.headers["request-id"]).toBe(requestId);
      envelope(JSON.parse(answer.body));
    });
  }

  test("a chunked body that stops arriving, and one that never starts, get the same answer", async () => {
    const bearer = { authorization: `Bearer ${org.apiKey}` };
    const [chunked, none] = await Promise.all([
      rawRequest(port(), head("/v1/chat/completions", { ...bearer, "transfer-encoding": "chunked" }), ['5\r\n{"mod\r\n'], 10),
      rawRequest(port(), head("/v1/chat/completions", { ...bearer, "content-length": "100" }), [], 10),
    ]);
    expect(chunked.status).toBe(408);
    expect(JSON.parse(chunked.body).error.code).toBe("request_timeout");
    expect(none.status).toBe(408);
    expect(JSON.parse(none.body).error.code).toBe("request_timeout");
  });

  test("nothing reached a provider and nothing was charged", async () => {
    // The stalled requests above ran first (a file's tests run in order).
    expect(await mock.requests()).toEqual([]);
    await gw.runtime.usage.flush();
    expect(await gw.runtime.store.listUsageEvents(org.orgId)).toEqual([]);
  });
});

test("a body that keeps coming, slower than the whole timeout but never idle that long, is answered", async () => {
  // Eight parts 300 ms apart: about 2.4 s in all, over twice the 1 s idle bound, no gap near it.
  const parts = Array.from({ length: 8 }, (_, i) => chat.slice((i * chat.length) / 8, ((i + 1) * chat.length) / 8));
  const answer = await rawRequest(
    port(),
    head("/v1/chat/completions", { authorization: `Bearer ${org.apiKey}`, "content-length": String(chat.length), connection: "close" }),
    parts,
    300,
  );
  expect(answer.status).toBe(200);
  expect(answer.body).toContain("chat.completion");
}, 30_000);

test("Bun's own idle timeout cuts a slow body without an answer unless the reader holds it off", async () => {
  // Bun's timer at 1 s (it moves in steps of 4 s): the unheld read is cut within 4 s though its bytes keep coming.
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 1,
    async fetch(request, srv) {
      const held = new URL(request.url).pathname === "/held";
      try {
        const body = await readJsonObject(request, bodyLimits(10_000, 2), held ? srv : null);
        return Response.json(body);
      } catch {
        return new Response("unread", { status: 400 });
      }
    },
  });
  try {
    const text = JSON.stringify({ pad: "x".repeat(22) });
    const parts = text.split("");
    // About 6 s of a byte every 200 ms: idle never, over Bun's timeout always.
    const send = (path: string) =>
      rawRequest(
        server.port as number,
        `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-length: ${text.length}\r\nconnection: close\r\n\r\n`,
        parts,
        200,
      );
    const [held, unheld] = await Promise.all([send("/held"), send("/unheld")]);
    expect(held.status).toBe(200);
    expect(JSON.parse(held.body)).toEqual({ pad: "x".repeat(22) });
    expect(unheld.status).toBe(0);
  } finally {
    server.stop(true);
  }
}, 30_000);

test("the gateway endpoint's read-only probe holds off the timeout of the request itself while it reads its copy of the body", async () => {
  // A session call without Origin: refused as possibly cross-site unless the probe finds the operation only reads.
  const identity = { kind: "user", id: "u1", organization: { id: "o1" } } as unknown as Identity;
  const authenticator = {
    authenticate: (_request: Request, readOnly = false) => {
      if (!readOnly) throw new OriginRequired();
      return identity;
    },
  } as unknown as Authenticator;
  const runner = new RequestRunner({
    authenticator,
    limiter: new TokenBucketLimiter({ limit: 10, windowS: 60 }),
    metrics: new HttpMetrics(new MetricsRegistry()),
    log: createLogger("silent"),
    trustProxy: false,
    onKeyUsed: () => {},
    schedule: () => {},
  });
  const request = new Request("http://gw.test/api/v1/gateway", { method: "POST", body: '{"operation":"user.me"}' });
  const timeouts: { request: Request; seconds: number }[] = [];
  const server = { timeout: (r: Request, seconds: number) => void timeouts.push({ request: r, seconds }), requestIP: () => null };
  const readOnly = gatewayReadOnly({ operations: { readOnly: () => true } as never, services: {} as never, body: bodyLimits(1000, 1) });
  const route = {
    surface: "gateway" as const,
    route: "/api/v1/gateway",
    admission: "identity" as const,
    readOnly,
    handler: () => new Response("ok"),
  };
  expect((await runner.run(route, request, server as unknown as Server<unknown>)).status).toBe(200);
  expect(timeouts.length).toBeGreaterThanOrEqual(2);
  expect(timeouts.every((t) => t.request === request)).toBe(true);
  expect(timeouts.at(0)!.seconds).toBe(6);
  expect(timeouts.at(-1)!.seconds).toBe(SERVER_IDLE_TIMEOUT_S);
});
