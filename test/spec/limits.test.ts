/**
 * SPEC "Limits": every response carries X-RateLimit-Limit, -Remaining and -Reset, on
 * every surface and status; and a key past its request limit is refused with 429
 * `rate_limit_exceeded` in each surface's envelope (the general format's `details`:
 * `limit`, `remaining`, `resetAt`), on the endpoints whose statuses list 429. A body
 * declared larger than any limit is refused by the gateway too, not by the server under it.
 */
import { expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { createServiceAccountWithKey } from "../../src/services/service-accounts.ts";
import { removeDir, startGateway } from "../support/gateway-process.ts";
import { startGatewayInProcess } from "../support/in-process.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

const stack = stackPerFile({
  providers: [
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-spec-0123456789" },
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-anthropic-spec-0123456789" },
  ],
});

const chat = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] };
const messages = { model: "claude-sonnet-4-5", max_tokens: 8, messages: [{ role: "user", content: "hi" }] };

/** A request per surface and outcome: answered, streamed, refused, unknown, wrong method, unauthenticated. */
function sweep(key: string): [string, string, RequestInit][] {
  const bearer = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const post = (body: object, headers: Record<string, string> = bearer): RequestInit => ({
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  return [
    ["chat", "/v1/chat/completions", post(chat)],
    ["chat stream", "/v1/chat/completions", post({ ...chat, stream: true })],
    ["chat 400", "/v1/chat/completions", post({ ...chat, temperature: 9 })],
    ["chat 401", "/v1/chat/completions", post(chat, { "content-type": "application/json" })],
    ["embeddings", "/v1/embeddings", post({ model: "text-embedding-3-small", input: "hi" })],
    ["models", "/v1/models", { headers: bearer }],
    ["messages", "/v1/messages", post(messages, { "x-api-key": key, "msg-version": "2023-06-01", "content-type": "application/json" })],
    ["messages stream", "/v1/messages", post({ ...messages, stream: true }, { "x-api-key": key, "content-type": "application/json" })],
    [
      "messages 404",
      "/v1/messages",
      post({ ...messages, model: "no-such-model" }, { "x-api-key": key, "content-type": "application/json" }),
    ],
    ["gateway", "/api/v1/gateway", post({ operation: "user.me", params: {} })],
    ["gateway 400", "/api/v1/gateway", post({ operation: "no.such", params: {} })],
    ["analytics", "/api/byok/analytics/forecast/7d", { headers: bearer }],
    ["analytics 400", "/api/byok/analytics/trends/5d", { headers: bearer }],
    ["etl", "/api/user/etl-metrics", { headers: bearer }],
    ["rate-limit status", "/api/user/rate-limit-status", { headers: bearer }],
    ["route", "/api/byok/route", post({ strategy: "cost", messages: chat.messages })],
    ["unknown path", "/api/nowhere", { headers: bearer }],
    ["wrong method", "/v1/chat/completions", { method: "GET", headers: bearer }],
    ["health", "/healthz", {}],
    ["interface description", "/openapi.json", {}],
    ["dashboard", "/dashboard", {}],
  ];
}

test("every response carries X-RateLimit-Limit, -Remaining and -Reset", async () => {
  const seen = new Set<number>();
  for (const [name, path, init] of sweep(stack.org.apiKey)) {
    const res = await fetch(`${stack.gw.url}${path}`, init);
    await res.arrayBuffer();
    seen.add(res.status);
    const h = res.headers;
    expect([name, h.get("x-ratelimit-limit")]).toEqual([name, "1200"]);
    expect([name, h.get("x-ratelimit-remaining")]).toEqual([name, expect.stringMatching(/^\d+$/)]);
    expect([name, h.get("x-ratelimit-reset")]).toEqual([name, expect.stringMatching(/^\d{10}$/)]);
    // Unix seconds, not milliseconds: within the window from now.
    expect([name, Math.abs(Number(h.get("x-ratelimit-reset")) - Date.now() / 1000) <= 120]).toEqual([name, true]);
  }
  // The sweep met answers, refusals and failures alike.
  expect([...seen].sort()).toEqual([200, 400, 401, 404, 405]);
});

test("a key past its limit gets 429 rate_limit_exceeded in each surface's envelope, with Retry-After", async () => {
  // A gateway whose limit three calls use up, over the same data; the window is long, so no refill comes mid-test.
  const limited = await startGatewayInProcess({
    dataDir: stack.gw.dataDir,
    env: { GW_RATE_LIMIT_REQUESTS: "3", GW_RATE_LIMIT_WINDOW_S: "3600" },
  });
  try {
    const org2 = (await limited.runtime.services.store.getOrganization(stack.org.orgId))!;
    const { keyValue: key } = await createServiceAccountWithKey(limited.runtime.services, CLI_ACTOR, org2, stack.org.userId, {
      serviceAccountName: "limited",
      name: "k",
      keyType: "live",
      role: "member",
    });
    for (let i = 0; i < 3; i++) expect((await limited.op(key, "user.me")).status).toBe(200);
    const surfaces = new Map(sweep(key).map(([name, path, init]) => [name, { path, init }]));
    const refused = async (name: string) => {
      const { path, init } = surfaces.get(name)!;
      const res = await fetch(`${limited.url}${path}`, init);
      expect([name, res.status]).toEqual([name, 429]);
      expect([name, Number(res.headers.get("retry-after")) >= 1]).toEqual([name, true]);
      expect([name, res.headers.get("x-ratelimit-remaining")]).toEqual([name, "0"]);
      return (await res.json()) as any;
    };
    for (const name of ["chat", "embeddings", "models"]) {
      expect((await refused(name)).error).toMatchObject({
        type: "rate_limit_error",
        code: "rate_limit_exceeded",
        message: expect.any(String),
      });
    }
    expect(await refused("messages")).toMatchObject({ type: "error", error: { type: "rate_limit_error", message: expect.any(String) } });
    expect(await refused("gateway")).toMatchObject({ success: false, data: null, error: expect.any(String), code: "rate_limit_exceeded" });
    for (const name of ["analytics", "etl", "rate-limit status", "route"]) {
      const body = await refused(name);
      expect([name, body]).toEqual([
        name,
        {
          error: {
            code: "rate_limit_exceeded",
            message: expect.any(String),
            details: { limit: 3, remaining: 0, resetAt: expect.any(String) },
          },
        },
      ]);
      expect(Date.parse(body.error.details.resetAt)).toBeGreaterThan(Date.now());
    }
  } finally {
    await limited.stop();
  }
});

/** The raw answer to a request head that declares `length` body bytes, of which only a few are sent. */
function declaredBody(path: string, length: number | string, headers: Record<string, string>, base = stack.gw.url): Promise<string> {
  const { hostname, port } = new URL(base);
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${hostname}`,
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    let answer = "";
    Bun.connect({
      hostname,
      port: Number(port),
      socket: {
        open: (socket) => void socket.write(`${head.join("\r\n")}\r\n\r\n{"model":`),
        data(socket, bytes) {
          answer += new TextDecoder().decode(bytes);
          // The whole answer: its head, and as many body bytes as it declares.
          const [top, body = ""] = answer.split("\r\n\r\n");
          const declared = /content-length: (\d+)/i.exec(top ?? "");
          if (answer.includes("\r\n\r\n") && (!declared || body.length >= Number(declared[1]))) {
            socket.end();
            resolve(answer);
          }
        },
        close: () => resolve(answer),
        error: (_socket, err) => reject(err),
      },
    }).catch(reject);
  });
}

test("a body declared larger than any limit is a 413 in the surface's envelope, with the rate-limit headers", async () => {
  const GiB = 1024 ** 3;
  const chat = await declaredBody("/v1/chat/completions", 2 * GiB, {
    authorization: `Bearer ${stack.org.apiKey}`,
    "content-type": "application/json",
  });
  expect(chat).toStartWith("HTTP/1.1 413");
  expect(chat.toLowerCase()).toContain("x-ratelimit-limit: 1200");
  expect(chat.toLowerCase()).toContain("x-request-id: ");
  const body = JSON.parse(chat.slice(chat.indexOf("\r\n\r\n") + 4));
  expect(body.error).toMatchObject({ type: "invalid_request_error", code: "payload_too_large" });
  // Past 2^53 (Bun's parser reads lengths up to 2^59 - 1): a limit of Number.MAX_SAFE_INTEGER answered these with its bare 413.
  const huge = await declaredBody("/v1/chat/completions", "36028797018963968", {
    authorization: `Bearer ${stack.org.apiKey}`,
    "content-type": "application/json",
  });
  expect(huge).toStartWith("HTTP/1.1 413");
  expect(huge.toLowerCase()).toContain("x-ratelimit-limit: 1200");
  expect(JSON.parse(huge.slice(huge.indexOf("\r\n\r\n") + 4)).error).toMatchObject({ code: "payload_too_large" });
  const messages = await declaredBody("/v1/messages", 4 * GiB, { "x-api-key": stack.org.apiKey, "content-type": "application/json" });
  expect(messages).toStartWith("HTTP/1.1 413");
  expect(JSON.parse(messages.slice(messages.indexOf("\r\n\r\n") + 4))).toMatchObject({
    type: "error",
    error: { type: "request_too_large" },
  });
});

test("`gateway serve` answers such a body itself too, in the envelope with the rate-limit headers", async () => {
  const served = await startGateway();
  try {
    const answer = await declaredBody("/api/v1/gateway", 2 * 1024 ** 3, { "content-type": "application/json" }, served.url);
    // No key: the gateway's own 401, where Bun's server used to answer a bare 413 first.
    expect(answer).toStartWith("HTTP/1.1 401");
    expect(answer.toLowerCase()).toContain("x-ratelimit-limit: 1200");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ success: false, code: "unauthorized" });
  } finally {
    await served.stop();
    removeDir(served.dataDir);
  }
});
