/**
 * Caller-chosen model names do not grow memory or metrics without bound (the probe that
 * found it: 1,000 calls to `a-openai/card2-<n>-…` by a member added 3,000 series to
 * /metrics and 1,033 entries to `ai.health`). Unknown models share the `other` label,
 * and this node keeps figures for a bounded number of models.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DEFAULT_HEALTH } from "../../src/state/provider-health.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { type Harness, startHarness } from "./harness.ts";

const mock = mockPerFile();
let h: Harness;
let providerId: string;

beforeAll(async () => {
  h = await startHarness();
  const created = await h.op(h.admin, "provider.create", {
    provider: "openai",
    name: "a-openai",
    apiKey: "sk-member-1234567890",
    baseUrl: `${mock.url}/v1`,
    scope: "organization",
  });
  expect(created.status).toBe(200);
  providerId = created.body.data.provider.id;
});

afterAll(async () => {
  await h.close();
});

const CALLS = 1000;

test(`${CALLS} distinct model names: /metrics folds them into "other", ai.health keeps a bounded number`, async () => {
  const call = (model: string) => h.chat(h.member, model, { max_tokens: 1 });
  for (let n = 0; n < CALLS; n += 50) {
    const batch = await Promise.all(Array.from({ length: 50 }, (_, i) => call(`a-openai/card2-${n + i}-${"q".repeat(40)}`)));
    expect(batch.map((r) => r.status)).toEqual(new Array(50).fill(200));
  }
  // A catalog model keeps a label of its own.
  expect((await call("a-openai/gpt-4o-mini")).status).toBe(200);

  const metrics = await (await h.fetch("/metrics")).text();
  const latency = metrics.split("\n").filter((l) => l.startsWith(`gateway_provider_latency_seconds{provider_id="${providerId}"`));
  expect(latency.map((l) => l.replace(/ \S+$/, "")).sort()).toEqual([
    `gateway_provider_latency_seconds{provider_id="${providerId}",model="gpt-4o-mini"}`,
    `gateway_provider_latency_seconds{provider_id="${providerId}",model="other"}`,
  ]);
  expect(metrics).not.toContain("card2-");

  const health = await h.op(h.admin, "ai.health", {});
  const models = health.body.data.providers.find((p: { id: string }) => p.id === providerId).models as { model: string }[];
  expect(models.length).toBeLessThanOrEqual(DEFAULT_HEALTH.maxModels);
  expect(models.map((m) => m.model)).toContain(`card2-${CALLS - 1}-${"q".repeat(40)}`);
}, 120_000);
