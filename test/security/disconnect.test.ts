/**
 * A client that goes away cancels the provider call on every path that reaches a
 * provider: chat completions, messages, embeddings and the gateway's ai.proxy. The
 * provider here never answers; it only notes that a call arrived and when its caller
 * (the gateway) hung up, so each test waits on those events, not on time.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
let provider: ReturnType<typeof Bun.serve>;
const arrived: (() => void)[] = [];
const hungUp: (() => void)[] = [];

const next = (queue: (() => void)[]) => new Promise<void>((resolve) => queue.push(resolve));

beforeAll(async () => {
  h = await startHarness();
  provider = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      if (req.method === "GET") return Response.json({ data: [] });
      arrived.shift()?.();
      return new Promise<Response>((resolve) =>
        req.signal.addEventListener("abort", () => {
          hungUp.shift()?.();
          resolve(new Response(null, { status: 499 }));
        }),
      );
    },
  });
  const base = `http://127.0.0.1:${provider.port}`;
  expect(
    (
      await h.op(h.admin, "provider.create", {
        provider: "custom",
        name: "stuck",
        apiKey: "k-1234567890",
        baseUrl: `${base}/v1`,
        country: "US",
        models: ["stuck-model"],
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await h.op(h.admin, "provider.create", {
        provider: "custom",
        name: "stuck-msg",
        format: "messages",
        apiKey: "k-1234567890",
        baseUrl: base,
        country: "US",
        models: ["stuck-msg-model"],
      })
    ).status,
  ).toBe(200);
});

afterAll(async () => {
  provider.stop(true);
  await h.close();
});

const paths: [string, string, object][] = [
  ["chat completions", "/v1/chat/completions", { model: "stuck/stuck-model", messages: [{ role: "user", content: "hi" }] }],
  [
    "chat completions, streamed",
    "/v1/chat/completions",
    { model: "stuck/stuck-model", stream: true, messages: [{ role: "user", content: "hi" }] },
  ],
  ["messages", "/v1/messages", { model: "stuck-msg/stuck-msg-model", max_tokens: 5, messages: [{ role: "user", content: "hi" }] }],
  ["embeddings", "/v1/embeddings", { model: "stuck/stuck-model", input: "hi" }],
  [
    "ai.proxy",
    "/api/v1/gateway",
    { operation: "ai.proxy", params: { provider: "stuck", model: "stuck-model", messages: [{ role: "user", content: "hi" }] } },
  ],
];

for (const [name, path, body] of paths) {
  test(`${name}: the provider call is cancelled when the client leaves`, async () => {
    const client = new AbortController();
    const seen = next(arrived);
    const gone = next(hungUp);
    const res = h.fetch(path, {
      method: "POST",
      signal: client.signal,
      headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...h.admin.headers },
      body: JSON.stringify(body),
    });
    await seen;
    client.abort();
    await gone;
    // The gateway answers the departed client without a crash (nobody reads it).
    expect((await res).status).toBeGreaterThanOrEqual(400);
  });
}
