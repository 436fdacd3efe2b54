/**
 * A client that goes away cancels the provider call on every path that reaches a
 * provider: chat completions, messages, embeddings and the gateway's ai.proxy. The
 * provider is the mock's `fault-hang`, which never answers; the mock lists the call once it
 * arrived and counts when its caller (the gateway) hung up, so each test waits on those, not on time.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "./harness.ts";
import type { RunningMock } from "../support/gateway-process.ts";
import { startMockInProcess } from "../support/in-process.ts";

let h: Harness;
let mock: RunningMock;

/** Resolves once the mock has seen `n` calls (it lists them as they arrive, before it answers). */
async function arrived(n: number): Promise<void> {
  while ((await mock.requests()).filter((r) => r.method === "POST").length < n) await Bun.sleep(5);
}

/** Resolves once the gateway has hung up on `n` calls. */
async function hungUp(n: number): Promise<void> {
  while (((await mock.stats()).abandonedByModel["fault-hang"] ?? 0) < n) await Bun.sleep(5);
}

beforeAll(async () => {
  h = await startHarness();
  mock = startMockInProcess();
  const base = mock.url;
  expect(
    (
      await h.op(h.admin, "provider.create", {
        provider: "custom",
        name: "stuck",
        apiKey: "k-1234567890",
        baseUrl: `${base}/v1`,
        country: "US",
        models: ["fault-hang"],
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
        models: ["fault-hang"],
      })
    ).status,
  ).toBe(200);
});

afterAll(async () => {
  await h.close();
  await mock.stop();
});

const paths: [string, string, object][] = [
  ["chat completions", "/v1/chat/completions", { model: "stuck/fault-hang", messages: [{ role: "user", content: "hi" }] }],
  [
    "chat completions, streamed",
    "/v1/chat/completions",
    { model: "stuck/fault-hang", stream: true, messages: [{ role: "user", content: "hi" }] },
  ],
  ["messages", "/v1/messages", { model: "stuck-msg/fault-hang", max_tokens: 5, messages: [{ role: "user", content: "hi" }] }],
  ["embeddings", "/v1/embeddings", { model: "stuck/fault-hang", input: "hi" }],
  [
    "ai.proxy",
    "/api/v1/gateway",
    { operation: "ai.proxy", params: { provider: "stuck", model: "fault-hang", messages: [{ role: "user", content: "hi" }] } },
  ],
];

for (const [i, [name, path, body]] of paths.entries()) {
  test(`${name}: the provider call is cancelled when the client leaves`, async () => {
    const client = new AbortController();
    const res = h.fetch(path, {
      method: "POST",
      signal: client.signal,
      headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...h.admin.headers },
      body: JSON.stringify(body),
    });
    await arrived(i + 1);
    client.abort();
    await hungUp(i + 1);
    // The gateway answers the departed client without a crash (nobody reads it).
    expect((await res).status).toBeGreaterThanOrEqual(400);
  });
}
