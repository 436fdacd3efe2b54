/**
 * A call refused under the organization's budget brings its budget check forward: the thresholds the spend reached
 * are announced once that spend is flushed, not at the organization's next period (here the operator's 300 s, whose
 * first tick is 30 s after the start, after this test's time limit).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { GatewayUnderTest } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";
import { until } from "../support/poll.ts";

let gw: GatewayUnderTest;
let mock: RunningMock;
let org: InitResult;

beforeAll(async () => {
  ({ mock, org, gw } = await startStack({ env: { GW_FLUSH_INTERVAL_MS: "50" } }));
  await gw.op(org.apiKey, "provider.create", {
    provider: "openai",
    apiKey: "sk-openai-1234567890",
    baseUrl: `${mock.url}/v1`,
    scope: "organization",
  });
}, 30_000);

afterAll(async () => {
  await stopStack({ gw, mock });
});

test("the first call the budget refuses is followed by the thresholds reached, without waiting for the period", async () => {
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
  // About a cent: a long prompt to gpt-4o ($2.50 per million input tokens).
  await client.chat.completions.create({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: "budget ".repeat(4500) }] });
  await until(async () => ((await gw.op(org.apiKey, "metrics.cost", { windowDays: 1 })).body.data.totalCalls === 1 ? true : undefined));
  // A budget the month's spend has reached: the next call is refused.
  expect((await gw.op(org.apiKey, "user.preferences", { set: { monthlyBudgetCents: 1 } })).status).toBe(200);
  const refused = await client.chat.completions
    .create({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: "hello" }] })
    .catch((err: { status?: number; code?: string }) => err);
  expect(refused).toMatchObject({ status: 429, code: "monthly_cap_exceeded" });
  const notes = await until(async () => {
    const r = await gw.op(org.apiKey, "notifications.list", {});
    const budget = r.body.data.notifications.filter((n: { kind: string }) => n.kind === "budget.threshold");
    return budget.length === 4 ? budget : undefined;
  });
  expect(notes.map((n: { data: { threshold: number } }) => n.data.threshold).sort((a: number, b: number) => a - b)).toEqual([
    50, 75, 90, 100,
  ]);
}, 20_000);
