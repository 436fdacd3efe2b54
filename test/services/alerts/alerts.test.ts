/** Budget thresholds and rate-limit state changes become one notification each; webhooks are signed, retried and recorded. */
import { afterEach, beforeEach, expect, spyOn, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../../src/domain/ids.ts";
import type { UsageEvent } from "../../../src/domain/types.ts";
import { createLogger } from "../../../src/lib/log.ts";
import { SecretBox } from "../../../src/lib/secret-box.ts";
import { AlertChecker, type ProviderLimitState, REFUSAL_CHECK_GAP_MS } from "../../../src/services/alerts/alert-checker.ts";
import { Notifier } from "../../../src/services/alerts/notifier.ts";
import { rotateWebhookSecret } from "../../../src/services/alerts/webhook-secret.ts";
import { verifyWebhook } from "../../../src/services/alerts/webhook-signature.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";

const now = Date.UTC(2026, 10, 16, 12);
let store: SqliteStore;
let orgId: string;
let received: { headers: Headers; body: string }[];
let answers: number[];
let server: ReturnType<typeof Bun.serve>;
const box = new SecretBox(new Uint8Array(32).fill(7));

function notifier() {
  return new Notifier({
    store,
    box,
    log: createLogger("silent"),
    delivery: { fetch: (u, i) => fetch(u, i), sleep: async () => {}, now: () => now, attempts: 3, backoffMs: 1, timeoutMs: 5000 },
  });
}

const spend = (costMicros: number): UsageEvent => ({
  id: newId("evt"),
  requestId: "r",
  orgId,
  keyId: null,
  userId: null,
  provider: "openai",
  model: "gpt-4o",
  promptTokens: 1,
  completionTokens: 1,
  costMicros,
  latencyMs: 1,
  status: 200,
  errorCode: null,
  createdAt: now - 3_600_000,
});

beforeEach(async () => {
  store = new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-alerts-")), "gateway.db"));
  await store.migrate();
  orgId = newId("org");
  await store.createOrganization({ id: orgId, name: "Acme", tier: "enterprise", createdAt: 1 });
  received = [];
  answers = [];
  server = Bun.serve({
    port: 0,
    fetch: async (req) => {
      received.push({ headers: req.headers, body: await req.text() });
      return new Response("no", { status: answers.shift() ?? 200 });
    },
  });
});

afterEach(async () => {
  server.stop(true);
  await store.close();
});

test("each budget threshold is announced once a month, and posted signed after a retry", async () => {
  const secret = await rotateWebhookSecret(store, box, orgId, now);
  await store.setOrgPreferences(orgId, {
    ...(await store.getOrgPreferences(orgId)),
    monthlyBudgetCents: 1000,
    alertWebhookUrl: `http://127.0.0.1:${server.port}/hook`,
  });
  await store.writeFlush({ id: crypto.randomUUID(), events: [spend(8_000_000)], keyTouches: [] });
  answers = [500];
  const n = notifier();
  const checker = new AlertChecker({ store, notifier: n, log: createLogger("silent"), now: () => now });
  await checker.checkOrg(orgId);
  await checker.checkOrg(orgId);
  await n.idle();
  const list = await store.listNotifications(orgId, 10);
  expect(list.map((x) => x.body.threshold).sort()).toEqual([50, 75]);
  // Two notifications, the first answered 500 then 200: three posts, all verifiable.
  expect(received).toHaveLength(3);
  for (const r of received) expect(verifyWebhook(secret, r.headers, r.body, Math.floor(now / 1000))).toBe(true);
  expect(verifyWebhook("whsec_wrong", received[0]!.headers, received[0]!.body, Math.floor(now / 1000))).toBe(false);
  expect(verifyWebhook(secret, received[0]!.headers, received[0]!.body, Math.floor(now / 1000) + 3600)).toBe(false);
  const deliveries = await store.listWebhookDeliveries(orgId, 10);
  expect(deliveries.map((d) => d.status).sort()).toEqual([200, 200, 500]);
  // More spend crosses 90 and 100: only those two are new.
  await store.writeFlush({ id: crypto.randomUUID(), events: [spend(3_000_000)], keyTouches: [] });
  await checker.checkOrg(orgId);
  expect((await store.listNotifications(orgId, 10)).map((x) => x.body.threshold).sort()).toEqual([100, 50, 75, 90]);
});

test("without a webhook secret nothing is posted and the refusal is recorded", async () => {
  await store.setOrgPreferences(orgId, {
    ...(await store.getOrgPreferences(orgId)),
    monthlyBudgetCents: 100,
    alertWebhookUrl: `http://127.0.0.1:${server.port}/hook`,
  });
  await store.writeFlush({ id: crypto.randomUUID(), events: [spend(600_000)], keyTouches: [] });
  const n = notifier();
  await new AlertChecker({ store, notifier: n, log: createLogger("silent"), now: () => now }).checkOrg(orgId);
  await n.idle();
  expect(received).toHaveLength(0);
  expect((await store.listWebhookDeliveries(orgId, 10))[0]?.error).toContain("no webhook secret");
});

test("a 4xx answer is not retried; a dead receiver is retried to the limit", async () => {
  await rotateWebhookSecret(store, box, orgId, now);
  await store.setOrgPreferences(orgId, {
    ...(await store.getOrgPreferences(orgId)),
    alertWebhookUrl: `http://127.0.0.1:${server.port}/hook`,
  });
  answers = [410];
  const n = notifier();
  await n.notify({ orgId, kind: "test", severity: "info", title: "t", body: {} });
  await n.idle();
  expect(received).toHaveLength(1);
  server.stop(true);
  await n.notify({ orgId, kind: "test", severity: "info", title: "t2", body: {} });
  await n.idle();
  const errors = (await store.listWebhookDeliveries(orgId, 10)).map((d) => d.error);
  expect(errors.filter((e) => e === "connection failed")).toHaveLength(3);
});

test("rate-limit states: one notification per change into warning or critical", async () => {
  let states: ProviderLimitState[] = [];
  const set = (status: ProviderLimitState["status"]) => (states = [{ provider: "openai", status, message: status, details: {} }]);
  const checker = new AlertChecker({
    store,
    notifier: notifier(),
    log: createLogger("silent"),
    now: () => now,
    rateLimits: async () => states,
  });
  for (const s of ["ok", "warning", "warning", "critical", "critical", "ok", "warning"] as const) {
    set(s);
    await checker.checkOrg(orgId);
  }
  const list = (await store.listNotifications(orgId, 10)).reverse();
  expect(list.map((n) => [n.body.previous, n.body.status])).toEqual([
    ["ok", "warning"],
    ["warning", "critical"],
    ["ok", "warning"],
  ]);
});

test("a budget notification carries exact amounts, never cents rounded past the threshold it names", async () => {
  await store.setOrgPreferences(orgId, { ...(await store.getOrgPreferences(orgId)), monthlyBudgetCents: 3 });
  // 1.6 cents of 3: 53.33%, so 50% only; rounded to 2 whole cents it would read as 67%.
  await store.writeFlush({ id: crypto.randomUUID(), events: [spend(16_000)], keyTouches: [] });
  await new AlertChecker({ store, notifier: notifier(), log: createLogger("silent"), now: () => now }).checkOrg(orgId);
  const [note, ...more] = await store.listNotifications(orgId, 10);
  expect(more).toHaveLength(0);
  expect(note!.title).toBe("Spend reached 50% of the monthly budget (53.33%: $0.016 of $0.03)");
  expect(note!.body).toMatchObject({
    threshold: 50,
    spentPercent: 53.33,
    spentMicros: 16_000,
    spentCents: 1.6,
    monthlyBudgetMicros: 30_000,
    monthlyBudgetCents: 3,
  });
  expect(note!.body.projectedMicros).toBeGreaterThanOrEqual(16_000);
});

test("each organization's alertCheckIntervalS sets its check period, read at every tick, so a change needs no restart", async () => {
  let t = now;
  const checked: number[] = [];
  const checker = new AlertChecker({
    store,
    notifier: notifier(),
    log: createLogger("silent"),
    now: () => t,
    rateLimits: async () => {
      checked.push((t - now) / 1000);
      return [];
    },
  });
  // The operator's default: 300 s (the timer itself ticks every 30 s; the ticks are driven by hand here).
  checker.start(300_000);
  try {
    const at = async (s: number) => {
      t = now + s * 1000;
      await checker.checkDue();
    };
    const setPeriod = async (v: number | null) =>
      store.setOrgPreferences(orgId, { ...(await store.getOrgPreferences(orgId)), alertCheckIntervalS: v });
    await at(0);
    await at(30);
    expect(checked).toEqual([0]);
    await setPeriod(30);
    for (const s of [30, 45, 60, 90]) await at(s);
    expect(checked).toEqual([0, 30, 60, 90]);
    // Back to the default: the next check 300 s after the last.
    await setPeriod(null);
    for (const s of [120, 360, 390]) await at(s);
    expect(checked).toEqual([0, 30, 60, 90, 390]);
  } finally {
    await checker.stop();
  }
});

test("a clock set back does not stop the checks until it catches up with the last one", async () => {
  let t = now;
  const checked: number[] = [];
  const checker = new AlertChecker({
    store,
    notifier: notifier(),
    log: createLogger("silent"),
    now: () => t,
    rateLimits: async () => (checked.push(t), []),
  });
  checker.start(300_000);
  try {
    await checker.checkDue();
    // The system clock is stepped back an hour (a corrected drift, a restored VM): checks go on at their period.
    for (const s of [-3600, -3300, -3000]) {
      t = now + s * 1000;
      await checker.checkDue();
    }
    expect(checked.map((x) => (x - now) / 1000)).toEqual([0, -3600, -3300, -3000]);
  } finally {
    await checker.stop();
  }
});

test("a refusal under the budget checks it after the flush wait, once for a burst of refusals", async () => {
  await store.setOrgPreferences(orgId, { ...(await store.getOrgPreferences(orgId)), monthlyBudgetCents: 1000 });
  await store.writeFlush({ id: crypto.randomUUID(), events: [spend(10_000_000)], keyTouches: [] });
  let t = now;
  const checker = new AlertChecker({ store, notifier: notifier(), log: createLogger("silent"), now: () => t, afterRefusalMs: 20 });
  // Each check sums the month's spend once.
  const reads = spyOn(store, "sumUsage");
  for (let i = 0; i < 50; i++) checker.budgetRefused(orgId);
  // Nothing before the wait: the spend the cap counted may not be in the store yet.
  expect(await store.listNotifications(orgId, 10)).toEqual([]);
  await checker.idle();
  expect((await store.listNotifications(orgId, 10)).map((n) => n.body.threshold).sort()).toEqual([100, 50, 75, 90]);
  expect(reads).toHaveBeenCalledTimes(1);
  // Within the gap another refusal adds no check; after it, one more.
  t += REFUSAL_CHECK_GAP_MS - 1;
  checker.budgetRefused(orgId);
  await checker.idle();
  expect(reads).toHaveBeenCalledTimes(1);
  t += 1;
  checker.budgetRefused(orgId);
  await checker.idle();
  expect(reads).toHaveBeenCalledTimes(2);
  // A check not run yet at shutdown is dropped.
  t += REFUSAL_CHECK_GAP_MS;
  checker.budgetRefused(orgId);
  await checker.stop();
  expect(reads).toHaveBeenCalledTimes(2);
  reads.mockRestore();
});
