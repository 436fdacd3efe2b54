/**
 * `POST /v1/messages/count_tokens` against a provider that misbehaves on purpose. The
 * probe that found the hole: the provider's count was read whole (`response.json()`), so
 * a messages-format provider at a member's own address could answer a count with
 * gigabytes until the upstream timeout (300 s) and fill the node's memory. A count is
 * read up to MAX_COUNT_ANSWER_BYTES; past it the answer is not a count (502).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_COUNT_ANSWER_BYTES } from "../../src/pipeline/count-tokens.ts";
import { type Harness, startHarness } from "../security/harness.ts";
import type { RunningMock } from "../support/gateway-process.ts";
import { startMockInProcess } from "../support/in-process.ts";

const TOTAL = 64 * 1024 * 1024;
let h: Harness;
let mock: RunningMock;

beforeAll(async () => {
  h = await startHarness();
  // The mock's oversized steer: a count padded past any bound, {"input_tokens":5,"pad":["x…",…,"end"]}.
  mock = startMockInProcess();
  const created = await h.op(h.member, "provider.create", {
    provider: "anthropic",
    apiKey: "sk-ant-member-own-key-000",
    baseUrl: `${mock.url}/fault-oversized-${TOTAL / 1024 / 1024}`,
  });
  expect(created.status).toBe(200);
});

afterAll(async () => {
  await mock.stop();
  await h.close();
});

test("a count answer past the bound is the provider's 502, and the rest is not read", async () => {
  const res = await h.fetch("/v1/messages/count_tokens", {
    method: "POST",
    headers: { ...h.member.headers, "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(res.status).toBe(502);
  expect(((await res.json()) as { error: { message: string } }).error.message).toContain("answered count_tokens without input_tokens");
  expect(MAX_COUNT_ANSWER_BYTES).toBeLessThan(TOTAL);
  expect((await mock.stats()).oversizedBytes).toBeLessThan(TOTAL / 2);
});
