/**
 * A request body that stops arriving is answered, not cut: a started gateway (body
 * timeout 2 s through GW_BODY_TIMEOUT_S) answers a body that stalls with a 408 in the
 * surface's envelope, the request id and the rate-limit headers, closes the connection
 * with it, charges nothing and calls no provider; a body that keeps coming, never idle
 * past the bound, is read. And Bun's own idle timeout, which counts across a body still
 * arriving and cuts without an answer, is held off while a reader reads. The slow
 * requests all start together (seconds of waiting each, no work), so the file takes
 * about as long as the slowest of them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import type { Server } from "bun";
import type { Identity } from "../../src/domain/identity.ts";
import { HttpMetrics } from "../../src/http/http-metrics.ts";
import { RequestRunner } from "../../src/http/request-runner.ts";
import { gatewayReadOnly } from "../../src/http/surfaces/gateway-surface.ts";
import { bodyLimits, readJsonObject, SERVER_IDLE_TIMEOUT_S, WHOLE_WITHIN_IDLE_BYTES } from "../../src/lib/json-body.ts";
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
  const stack = await startStack({ env: { GW_BODY_TIMEOUT_S: "2" } });
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

/** A small declared body must be whole within the idle bound; a chunked one may not go that long without a byte. */
const STALLED = "The request body did not arrive within 2 seconds.";
const STALLED_CHUNKED = "The request body stopped arriving: nothing came for 2 seconds.";

/** Each surface kind: its path, its credentials (KEY: the org's key) and the envelope its 408 comes in. */
const SURFACES: [string, string, Record<string, string>, unknown][] = [
  [
    "chat completions (OpenAI envelope)",
    "/v1/chat/completions",
    { authorization: "Bearer KEY" },
    { error: { message: STALLED, type: "invalid_request_error", code: "request_timeout", param: null } },
  ],
  [
    "messages (Anthropic envelope)",
    "/v1/messages",
    { "x-api-key": "KEY", "anthropic-version": "2023-06-01" },
    { type: "error", error: { type: "invalid_request_error", message: STALLED, code: "request_timeout" } },
  ],
  [
    "the gateway endpoint",
    "/api/v1/gateway",
    { authorization: "Bearer KEY" },
    { success: false, data: null, error: STALLED, code: "request_timeout" },
  ],
  [
    "a general route (the general envelope)",
    "/api/byok/route",
    { authorization: "Bearer KEY" },
    { error: { code: "request_timeout", message: STALLED, details: {} } },
  ],
  [
    "MCP POST (JSON-RPC error)",
    "/mcp",
    { authorization: "Bearer KEY", accept: "application/json, text/event-stream" },
    { jsonrpc: "2.0", error: { code: -32000, message: `Request Timeout: ${STALLED}` }, id: null },
  ],
];

const requestIdOf = (path: string) => `slow${path.replaceAll("/", "-")}`;

/**
 * Every slow request of this file, started together once the gateway is up (each takes
 * seconds of waiting, none of work): the tests below read their answers.
 */
let sent: {
  stalled: Map<string, Promise<RawAnswer>>;
  chunked: Promise<RawAnswer>;
  neverStarted: Promise<RawAnswer>;
  steady: Promise<RawAnswer>;
};

/**
 * A plain server with Bun's timer at 1 s (it moves in steps of 4 s), reading with the gateway's reader,
 * its server's timeout held (/held) or not (/unheld): an unheld read is cut within 4 s though its bytes keep coming.
 */
let bunServer: ReturnType<typeof Bun.serve>;
let bunAnswers: Promise<[RawAnswer, RawAnswer]>;
const PAD = JSON.stringify({ pad: "x".repeat(WHOLE_WITHIN_IDLE_BYTES) });

function startBunServer(): void {
  bunServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 1,
    async fetch(request, srv) {
      const held = new URL(request.url).pathname === "/held";
      try {
        return Response.json(await readJsonObject(request, bodyLimits(1024 * 1024, 2), held ? srv : null));
      } catch (err) {
        return new Response(`unread: ${(err as Error).message}`, { status: 400 });
      }
    },
  });
  // About 5.6 s of a part every 200 ms: idle never, over Bun's timeout always.
  const parts = Array.from({ length: 28 }, (_, i) => PAD.slice((i * PAD.length) / 28, ((i + 1) * PAD.length) / 28));
  const send = (path: string) =>
    rawRequest(
      bunServer.port as number,
      `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-length: ${PAD.length}\r\nconnection: close\r\n\r\n`,
      parts,
      200,
    );
  bunAnswers = Promise.all([send("/held"), send("/unheld")]);
}

afterAll(() => bunServer.stop(true));

beforeAll(() => {
  startBunServer();
  const key = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("KEY", org.apiKey)]));
  const bearer = { authorization: `Bearer ${org.apiKey}` };
  // Twelve chunks 450 ms apart: about 5.4 s in all, over twice the 2 s idle bound, no gap near it. Chunked: a
  // declared body this small must be whole within the idle bound (the declared large one: Bun's test below).
  const chunks = Array.from({ length: 12 }, (_, i) => chat.slice((i * chat.length) / 12, ((i + 1) * chat.length) / 12));
  const parts = [...chunks.map((c) => `${c.length.toString(16)}\r\n${c}\r\n`), "0\r\n\r\n"];
  sent = {
    // A declared length, a start of the body, then nothing.
    stalled: new Map(
      SURFACES.map(([, path, headers]) => [
        path,
        rawRequest(port(), head(path, { ...key(headers), "x-request-id": requestIdOf(path), "content-length": "4000" }), ['{"mod'], 10),
      ]),
    ),
    chunked: rawRequest(port(), head("/v1/chat/completions", { ...bearer, "transfer-encoding": "chunked" }), ['5\r\n{"mod\r\n'], 10),
    neverStarted: rawRequest(port(), head("/v1/chat/completions", { ...bearer, "content-length": "100" }), [], 10),
    steady: rawRequest(
      port(),
      head("/v1/chat/completions", { ...bearer, "x-request-id": "steady", "transfer-encoding": "chunked", connection: "close" }),
      parts,
      450,
    ),
  };
});

describe("a body that stops arriving is a 408 in the surface's envelope, and the connection ends with it", () => {
  for (const [name, path, , envelope] of SURFACES) {
    test(name, async () => {
      // Resolved only once the gateway closed the connection.
      const answer = await sent.stalled.get(path)!;
      expect(answer.status).toBe(408);
      expect(answer.headers["connection"]).toBe("close");
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.headers["x-request-id"]).toBe(requestIdOf(path));
      expect(answer.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
      expect(answer.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
      if (path === "/v1/messages") expect(answer.headers["request-id"]).toBe(requestIdOf(path));
      expect(JSON.parse(answer.body)).toEqual(envelope);
    });
  }

  test("a chunked body that stops arriving, and one that never starts, get the same answer", async () => {
    for (const [answer, message] of [
      [await sent.chunked, STALLED_CHUNKED],
      [await sent.neverStarted, STALLED],
    ] as const) {
      expect(answer.status).toBe(408);
      expect(answer.headers["connection"]).toBe("close");
      expect(JSON.parse(answer.body).error).toMatchObject({ code: "request_timeout", message });
    }
  });
});

test("a body that keeps coming, over twice the idle bound in all but never idle that long, is answered", async () => {
  const answer = await sent.steady;
  expect([answer.status, answer.status === 200 ? "" : answer.body]).toEqual([200, ""]);
  expect(answer.body).toContain("chat.completion");
}, 30_000);

test("nothing of the stalled requests reached a provider or was charged", async () => {
  for (const answer of [...sent.stalled.values(), sent.chunked, sent.neverStarted, sent.steady]) await answer;
  // The one steady request alone reached the mock provider, and it alone has a usage row.
  expect((await mock.requests()).length).toBe(1);
  await gw.runtime.usage.flush();
  expect((await gw.runtime.store.listUsageEvents(org.orgId)).map((e) => e.requestId)).toEqual(["steady"]);
});

test("Bun's own idle timeout cuts a slow body without an answer unless the reader holds it off", async () => {
  const [held, unheld] = await bunAnswers;
  expect([held.status, held.status === 200 ? "" : held.body]).toEqual([200, ""]);
  expect(held.status).toBe(200);
  expect(JSON.parse(held.body)).toEqual(JSON.parse(PAD));
  expect(unheld.status).toBe(0);
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
