/** Alerts end to end: spend past budget thresholds becomes notifications, posted signed to a webhook the test runs. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { verifyWebhook } from "../../src/services/alerts/webhook-signature.ts";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { GatewayUnderTest } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";

let gw: GatewayUnderTest;
let mock: RunningMock;
let org: InitResult;
let receiver: ReturnType<typeof Bun.serve>;
const received: { headers: Headers; body: string }[] = [];
const answers = [500];

beforeAll(async () => {
  receiver = Bun.serve({
    port: 0,
    fetch: async (req) => {
      received.push({ headers: req.headers, body: await req.text() });
      return new Response(null, { status: answers.shift() ?? 204 });
    },
  });
  ({ mock, org, gw } = await startStack({ env: { GW_FLUSH_INTERVAL_MS: "50", GW_ALERT_CHECK_INTERVAL_S: "1" } }));
  await gw.op(org.apiKey, "provider.create", {
    provider: "openai",
    apiKey: "sk-openai-1234567890",
    baseUrl: `${mock.url}/v1`,
    scope: "organization",
  });
}, 30_000);

afterAll(async () => {
  await stopStack({ gw, mock });
  receiver.stop(true);
});

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    await Bun.sleep(100);
  }
}

test("budget thresholds: one notification each, posted signed, retried after a 500, marked read", async () => {
  const rotated = await gw.op(org.apiKey, "org.webhook-secret.rotate", {});
  expect(rotated.status).toBe(200);
  const secret: string = rotated.body.data.secret;
  expect(secret).toStartWith("whsec_");
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
  // Two long prompts to gpt-4o ($2.50 per million input tokens): about a cent each.
  const prompt = "budget ".repeat(4500);
  for (let i = 0; i < 2; i++)
    await client.chat.completions.create({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: prompt }] });
  const spentCents = await until(async () => {
    const d = (await gw.op(org.apiKey, "metrics.cost", { windowDays: 1 })).body.data;
    return d.totalCalls === 2 ? d.totalCostCents : undefined;
  });
  expect(spentCents).toBeGreaterThanOrEqual(2);
  // Then a budget that spend has passed (the budget also refuses calls beyond it, so it comes last).
  await gw.op(org.apiKey, "user.preferences", {
    set: { monthlyBudgetCents: 2, alertWebhookUrl: `http://127.0.0.1:${receiver.port}/hook` },
  });

  const notes = await until(async () => {
    const r = await gw.op(org.apiKey, "notifications.list", {});
    const budget = r.body.data.notifications.filter((n: { kind: string }) => n.kind === "budget.threshold");
    return budget.length === 4 ? budget : undefined;
  });
  expect(notes.map((n: { data: { threshold: number } }) => n.data.threshold).sort((a: number, b: number) => a - b)).toEqual([
    50, 75, 90, 100,
  ]);
  // Four posts plus the retry of the one that got a 500.
  await until(async () => (received.length >= 5 ? true : undefined));
  const nowS = Math.floor(Date.now() / 1000);
  for (const r of received) expect(verifyWebhook(secret, r.headers, r.body, nowS)).toBe(true);
  const ids = received.map((r) => JSON.parse(r.body).id as string);
  expect(new Set(ids).size).toBe(4);
  // Later checks add nothing: once per month per threshold.
  await Bun.sleep(2100);
  const again = await gw.op(org.apiKey, "notifications.list", {});
  expect(again.body.data.notifications.filter((n: { kind: string }) => n.kind === "budget.threshold")).toHaveLength(4);

  const read = await gw.op(org.apiKey, "notifications.read", { ids: [notes[0].id] });
  expect(read.body.data.marked).toBe(1);
  const unread = await gw.op(org.apiKey, "notifications.list", { unreadOnly: true });
  expect(unread.body.data.notifications.map((n: { id: string }) => n.id)).not.toContain(notes[0].id);
  expect((await gw.op(org.apiKey, "notifications.read", { all: true })).body.data.marked).toBe(3);
  expect((await gw.op(org.apiKey, "notifications.read", {})).status).toBe(400);
}, 30_000);

test("only an admin rotates the webhook secret", async () => {
  const member = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: "member-bot", role: "member" });
  expect(member.status).toBe(200);
  const key: string = member.body.data.apiKey.key;
  const r = await gw.op(key, "org.webhook-secret.rotate", {});
  expect(r.status).toBe(403);
});
