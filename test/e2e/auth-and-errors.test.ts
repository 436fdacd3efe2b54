/** Authentication, error envelopes and bad input, over HTTP against `gateway serve`. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type InitResult, type RunningGateway, startGatewayWithOrg, stopAndRemove } from "../support/gateway-process.ts";

let gw: RunningGateway;
let org: InitResult;

beforeAll(async () => {
  ({ org, gw } = await startGatewayWithOrg({ env: { GW_MAX_BODY_BYTES: "4096" } }));
});

afterAll(() => stopAndRemove(gw));

function expectStandardHeaders(res: Response) {
  expect(res.headers.get("x-request-id")).toBeTruthy();
  expect(Number(res.headers.get("x-ratelimit-limit"))).toBe(1200);
  expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
}

const post = (path: string, body: RequestInit["body"], headers: Record<string, string> = {}) =>
  fetch(`${gw.url}${path}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

describe("authentication", () => {
  test("Bearer and x-api-key both identify the service account", async () => {
    const viaBearer = await gw.op(org.apiKey, "user.me");
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body).toMatchObject({
      success: true,
      error: null,
      data: {
        identity: "serviceAccount",
        organization: { id: org.orgId, tier: "enterprise" },
        user: { role: "admin", email: "admin@example.com" },
      },
    });
    const viaHeader = await post("/api/v1/gateway", JSON.stringify({ operation: "user.me", params: {} }), { "x-api-key": org.apiKey });
    expect(viaHeader.status).toBe(200);
    expectStandardHeaders(viaHeader);
  });

  test("missing, malformed and unknown keys are 401 in the gateway envelope", async () => {
    const body = JSON.stringify({ operation: "user.me", params: {} });
    const cases: Record<string, string>[] = [
      {},
      { authorization: "Bearer nope" },
      { authorization: `Bearer gw_live_${"x".repeat(40)}` },
      { authorization: "Basic abc" },
      { "x-api-key": `gw_test_${"A".repeat(40)}` },
    ];
    for (const headers of cases) {
      const res = await post("/api/v1/gateway", body, headers);
      expect(res.status).toBe(401);
      expectStandardHeaders(res);
      expect(await res.json()).toMatchObject({ success: false, data: null, code: "unauthorized" });
    }
  });

  test("a client-supplied request id is echoed; otherwise one is generated", async () => {
    const res = await fetch(`${gw.url}/healthz`, { headers: { "x-request-id": "trace-123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-123");
    const other = await fetch(`${gw.url}/healthz`, { headers: { "x-request-id": "bad id with spaces" } });
    expect(other.headers.get("x-request-id")).not.toBe("bad id with spaces");
  });
});

describe("bad input", () => {
  const auth = () => ({ authorization: `Bearer ${org.apiKey}` });

  test("malformed JSON, empty body, non-object body", async () => {
    for (const body of ["{bad", "", "[]", "null"]) {
      const res = await post("/api/v1/gateway", body, auth());
      expect(res.status).toBe(400);
      const json = (await res.json()) as any;
      expect(json).toMatchObject({ success: false, data: null, code: "invalid_request" });
      expect(json.error.length).toBeGreaterThan(5);
    }
  });

  test("wrong types name the field", async () => {
    const res = await post("/api/v1/gateway", JSON.stringify({ operation: 42 }), auth());
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toContain("operation");
    const bad = await gw.op(org.apiKey, "org.api-key.revoke", { keyId: 7 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("params.keyId");
    const notObject = await gw.op(org.apiKey, "user.me", [1, 2]);
    expect(notObject.status).toBe(400);
  });

  test("unknown operation is 400 with success:false", async () => {
    const res = await gw.op(org.apiKey, "no.such.thing");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null });
    expect(res.body.error).toContain("Unknown operation");
  });

  test("bodies over the limit are 413 in the envelope", async () => {
    const res = await post("/api/v1/gateway", JSON.stringify({ operation: "user.me", params: { pad: "x".repeat(10_000) } }), auth());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, code: "payload_too_large" });
    expectStandardHeaders(res);
  });

  test("chat-completions bodies over the limit are 413 in the OpenAI envelope, with a Content-Length or chunked", async () => {
    const big = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "x".repeat(10_000) }] });
    const declared = await post("/v1/chat/completions", big, auth());
    // Sent as a stream, the body has no Content-Length: the limit is counted as it is read.
    const bytes = new TextEncoder().encode(big);
    const chunked = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth() },
      body: new ReadableStream({
        start(c) {
          for (let at = 0; at < bytes.length; at += 1024) c.enqueue(bytes.slice(at, at + 1024));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    for (const res of [declared, chunked]) {
      expect(res.status).toBe(413);
      expectStandardHeaders(res);
      const body = (await res.json()) as any;
      expect(body).toEqual({
        error: { message: expect.stringContaining("4096 bytes"), type: "invalid_request_error", code: "payload_too_large", param: null },
      });
    }
    // Just under the limit, the same two ways, the body is read (and fails later, for want of a provider).
    const small = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "x".repeat(3_000) }] });
    const underLimit = await post("/v1/chat/completions", small, auth());
    expect(underLimit.status).toBe(400);
    expect(((await underLimit.json()) as any).error.code).toBe("provider_not_configured");
  });

  test("unknown paths are 404 in the envelope their path implies", async () => {
    const general = await fetch(`${gw.url}/api/nowhere`);
    expect(general.status).toBe(404);
    expect(await general.json()).toMatchObject({ error: { code: "not_found" } });
    expectStandardHeaders(general);
    const openai = await fetch(`${gw.url}/v1/nowhere`);
    expect(openai.status).toBe(404);
    expect(await openai.json()).toMatchObject({ error: { type: "not_found_error", code: "not_found" } });
    const messages = await fetch(`${gw.url}/v1/messages/count`, { method: "PUT" });
    expect(await messages.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
  });

  test("a wrong method is 405 with Allow", async () => {
    const res = await fetch(`${gw.url}/api/v1/gateway`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toMatchObject({ success: false, code: "method_not_allowed" });
  });

  test("no response ever carries a stack trace", async () => {
    const res = await post("/api/v1/gateway", "\u0000\u0001", auth());
    const text = await res.text();
    expect(text).not.toContain("at ");
    expect(text).not.toContain(".ts:");
  });
});

describe("operations endpoints", () => {
  test("healthz, readyz and metrics", async () => {
    expect(await (await fetch(`${gw.url}/healthz`)).json()).toMatchObject({ status: "ok" });
    expect(await (await fetch(`${gw.url}/readyz`)).json()).toEqual({ status: "ready" });
    const metrics = await fetch(`${gw.url}/metrics`);
    expect(metrics.headers.get("content-type")).toContain("text/plain");
    const text = await metrics.text();
    expect(text).toMatch(/gateway_http_requests_total\{route="\/api\/v1\/gateway",method="POST",status="200"\} \d+/);
    expect(text).toContain('gateway_http_requests_total{route="unmatched",method="GET",status="404"}');
    expect(text).toContain("gateway_http_request_duration_seconds_bucket");
    expect(text).toContain("gateway_usage_flush_lag_seconds");
    expect(text).toContain("gateway_key_cache_hits_total");
  });

  test("one JSON log line per request, without keys or bodies", async () => {
    await gw.op(org.apiKey, "user.me", { marker: "do-not-log-me" });
    await Bun.sleep(50);
    const requests = gw.lines.filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l));
    expect(requests.length).toBeGreaterThan(5);
    expect(requests.at(-1)).toMatchObject({ level: "info", method: "POST", route: "/api/v1/gateway", orgId: org.orgId, keyId: org.keyId });
    const all = gw.lines.join("\n");
    expect(all).not.toContain(org.apiKey);
    expect(all).not.toContain("do-not-log-me");
  });
});
