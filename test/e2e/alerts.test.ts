/**
 * Alerts end to end: spend past budget thresholds becomes notifications, posted signed to a webhook the test runs,
 * with the signing secret made when the webhook URL is first set, and each post's outcome listed with its notification.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { verifyWebhook } from "../../src/services/alerts/webhook-signature.ts";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { GatewayUnderTest } from "../support/in-process.ts";
import { OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { startStack, stopStack } from "../support/stack.ts";
import { until } from "../support/poll.ts";

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
  ({ mock, org, gw } = await startStack({
    env: { GW_FLUSH_INTERVAL_MS: "50", GW_ALERT_CHECK_INTERVAL_S: "1" },
    providers: [OPENAI_AT_MOCK],
  }));
}, 30_000);

afterAll(async () => {
  await stopStack({ gw, mock });
  receiver.stop(true);
});

test("budget thresholds: one notification each, posted signed, retried after a 500, marked read", async () => {
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
  // Then a budget that spend has passed (the budget also refuses calls beyond it, so it comes last). The organization has
  // no signing secret yet: setting the URL makes one, shown in this answer only.
  const set = await gw.op(org.apiKey, "user.preferences", {
    set: { monthlyBudgetCents: 2, alertWebhookUrl: `http://127.0.0.1:${receiver.port}/hook` },
  });
  expect(set.status).toBe(200);
  expect(set.body.data.webhookSecret).toMatchObject({ shownOnce: true, signature: { header: "x-gw-signature" } });
  const secret: string = set.body.data.webhookSecret.secret;
  expect(secret).toStartWith("whsec_");
  // Once: neither a read nor setting the URL again shows it (or replaces it).
  expect(JSON.stringify((await gw.op(org.apiKey, "user.preferences", {})).body)).not.toContain(secret);
  const setAgain = await gw.op(org.apiKey, "user.preferences", { set: { alertWebhookUrl: `http://127.0.0.1:${receiver.port}/hook` } });
  expect(setAgain.body.data.webhookSecret).toBeUndefined();

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
  // Exact amounts: micro-dollars, and cents with their decimals.
  for (const r of received) {
    const data = JSON.parse(r.body).data;
    expect(Number.isInteger(data.spentMicros)).toBe(true);
    expect(data.spentCents).toBe(data.spentMicros / 10_000);
    expect(data.monthlyBudgetMicros).toBe(20_000);
  }
  // notifications.list shows each post: the one answered 500 then delivered, the others delivered at once.
  const listed = await until(async () => {
    const r = await gw.op(org.apiKey, "notifications.list", {});
    const budget = r.body.data.notifications.filter((n: { kind: string }) => n.kind === "budget.threshold");
    return budget.every((n: any) => n.webhook?.delivered) ? budget : undefined;
  });
  const attempts = listed.map((n: any) => n.webhook.attempts.map((a: { status: number }) => a.status).join(","));
  expect(attempts.sort()).toEqual(["204", "204", "204", "500,204"]);
  expect(listed.find((n: any) => n.webhook.attempts.length === 2).webhook.attempts[0]).toMatchObject({ attempt: 1, error: "HTTP 500" });
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

test("alertCheckIntervalS is an admin preference of at least 30 s; null is the operator's default", async () => {
  expect((await gw.op(org.apiKey, "user.preferences", {})).body.data.alertCheckIntervalS).toBeNull();
  const tooShort = await gw.op(org.apiKey, "user.preferences", { set: { alertCheckIntervalS: 29 } });
  expect(tooShort.status).toBe(400);
  expect(tooShort.body.error).toContain("alertCheckIntervalS");
  const set = await gw.op(org.apiKey, "user.preferences", { set: { alertCheckIntervalS: 30 } });
  expect([set.status, set.body.data.alertCheckIntervalS]).toEqual([200, 30]);
  const member = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: "member-interval", role: "member" });
  expect((await gw.op(member.body.data.apiKey.key, "user.preferences", { set: { alertCheckIntervalS: 60 } })).status).toBe(403);
  expect((await gw.op(org.apiKey, "user.preferences", { set: { alertCheckIntervalS: null } })).body.data.alertCheckIntervalS).toBeNull();
});
