/** Budget alerts fire once per threshold and month: not once per node, not again when later notifications pile up. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../../src/domain/ids.ts";
import type { UsageEvent } from "../../../src/domain/types.ts";
import { createLogger } from "../../../src/lib/log.ts";
import { SecretBox } from "../../../src/lib/secret-box.ts";
import { BUDGET_KIND, checkBudget } from "../../../src/services/alerts/budget-alerts.ts";
import { Notifier } from "../../../src/services/alerts/notifier.ts";
import { rotateWebhookSecret } from "../../../src/services/alerts/webhook-secret.ts";
import { recordAudit } from "../../../src/services/audit.ts";
import { runMaintenance } from "../../../src/services/maintenance.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";

const now = Date.UTC(2026, 10, 16, 12);
const box = new SecretBox(new Uint8Array(32).fill(7));
let dir: string;
let nodes: SqliteStore[];
let orgId: string;
let posts: string[];
let server: ReturnType<typeof Bun.serve>;

const notifierOf = (store: SqliteStore, at = now) =>
  new Notifier({
    store,
    box,
    log: createLogger("silent"),
    delivery: { fetch: (u, i) => fetch(u, i), sleep: async () => {}, now: () => at, attempts: 1, backoffMs: 1, timeoutMs: 5000 },
  });

const spend = (costMicros: number, createdAt = now - 3_600_000): UsageEvent => ({
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
  createdAt,
});

const budgetNotes = async () => (await nodes[0]!.listNotifications(orgId, 1000)).filter((n) => n.kind === BUDGET_KIND);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "gw-budget-alerts-"));
  // Two gateway nodes on one database.
  nodes = [new SqliteStore(join(dir, "gateway.db")), new SqliteStore(join(dir, "gateway.db"))];
  await nodes[0]!.migrate();
  orgId = newId("org");
  await nodes[0]!.createOrganization({ id: orgId, name: "Acme", tier: "enterprise", createdAt: 1 });
  posts = [];
  server = Bun.serve({ port: 0, fetch: async (req) => (posts.push(await req.text()), new Response("ok")) });
  await rotateWebhookSecret(nodes[0]!, box, orgId, now);
  await nodes[0]!.setOrgPreferences(orgId, {
    ...(await nodes[0]!.getOrgPreferences(orgId)),
    monthlyBudgetCents: 1000,
    alertWebhookUrl: `http://127.0.0.1:${server.port}/hook`,
  });
});

afterEach(async () => {
  server.stop(true);
  for (const s of nodes) await s.close();
});

test("two nodes checking at the same moment announce each threshold once, and post it once", async () => {
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(8_000_000)], keyTouches: [] });
  const notifiers = nodes.map((s) => notifierOf(s));
  await Promise.all(nodes.map((s, i) => checkBudget(s, notifiers[i]!, orgId, now)));
  await Promise.all(notifiers.map((n) => n.idle()));
  expect((await budgetNotes()).map((n) => n.body.threshold).sort()).toEqual([50, 75]);
  expect(posts).toHaveLength(2);
});

test("a threshold announced early in the month is not announced again after hundreds of later notifications", async () => {
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(6_000_000)], keyTouches: [] });
  const n = notifierOf(nodes[0]!);
  await checkBudget(nodes[0]!, n, orgId, now);
  // A noisy month: rate-limit states flip hundreds of times after the budget alert.
  for (let i = 0; i < 600; i++)
    await nodes[0]!.createNotification({
      id: newId("ntf"),
      orgId,
      kind: "rate_limit.status",
      severity: "warning",
      title: "openai: rate-limit status warning",
      body: {},
      createdAt: now + i,
    });
  expect(await checkBudget(nodes[0]!, n, orgId, now + 600_000)).toEqual([]);
  await n.idle();
  expect((await budgetNotes()).map((x) => x.body.threshold)).toEqual([50]);
});

test("the next month announces its thresholds afresh", async () => {
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(6_000_000)], keyTouches: [] });
  const n = notifierOf(nodes[0]!);
  expect(await checkBudget(nodes[0]!, n, orgId, now)).toEqual([50]);
  const december = Date.UTC(2026, 11, 3, 12);
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(5_000_000, december - 3_600_000)], keyTouches: [] });
  expect(await checkBudget(nodes[0]!, n, orgId, december)).toEqual([50]);
  await n.idle();
  expect((await budgetNotes()).map((x) => x.body.month).sort()).toEqual(["2026-11", "2026-12"]);
});

test("a threshold crossed after the month's last check is announced for that month by the next month's first checks", async () => {
  const n = notifierOf(nodes[0]!);
  const lastCheck = Date.UTC(2026, 10, 30, 23, 57);
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(8_000_000, lastCheck - 60_000)], keyTouches: [] });
  expect(await checkBudget(nodes[0]!, n, orgId, lastCheck)).toEqual([50, 75]);
  // Two minutes before midnight the month reaches 90%; the next check runs in December.
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(1_500_000, Date.UTC(2026, 10, 30, 23, 58))], keyTouches: [] });
  const firstDecemberCheck = Date.UTC(2026, 11, 1, 0, 2);
  expect(await checkBudget(nodes[0]!, n, orgId, firstDecemberCheck)).toEqual([90]);
  expect(await checkBudget(nodes[0]!, n, orgId, firstDecemberCheck + 300_000)).toEqual([]);
  await n.idle();
  const late = (await budgetNotes()).find((x) => x.body.threshold === 90);
  expect(late?.body).toMatchObject({ month: "2026-11", spentMicros: 9_500_000, projectedMicros: 9_500_000 });
  expect(late?.title).toBe("Spend reached 90% of the monthly budget for 2026-11 (95%: $9.5 of $10)");
});

test("a budget changed during the month has its own thresholds: a raised budget announces them again when reached", async () => {
  const n = notifierOf(nodes[0]!);
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(6_000_000)], keyTouches: [] });
  expect(await checkBudget(nodes[0]!, n, orgId, now)).toEqual([50]);
  // The admin doubles the budget: $6 of $20 is 30%, nothing to say; $11 of $20 is 55%, the new budget's 50%.
  await nodes[0]!.setOrgPreferences(orgId, { ...(await nodes[0]!.getOrgPreferences(orgId)), monthlyBudgetCents: 2000 });
  expect(await checkBudget(nodes[0]!, n, orgId, now)).toEqual([]);
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(5_000_000)], keyTouches: [] });
  expect(await checkBudget(nodes[0]!, n, orgId, now)).toEqual([50]);
  // Back to $10: what was announced for it this month stays announced; 100% of it is new.
  await nodes[0]!.setOrgPreferences(orgId, { ...(await nodes[0]!.getOrgPreferences(orgId)), monthlyBudgetCents: 1000 });
  expect(await checkBudget(nodes[0]!, n, orgId, now)).toEqual([75, 90, 100]);
  await n.idle();
  expect((await budgetNotes()).map((x) => [x.body.monthlyBudgetCents, x.body.threshold]).sort()).toEqual([
    [1000, 100],
    [1000, 50],
    [1000, 75],
    [1000, 90],
    [2000, 50],
  ]);
});

/** The budget changed as the preferences service changes it: the setting, then its audit entry naming what changed. */
async function changeSettings(at: number, patch: Record<string, unknown>) {
  await nodes[0]!.setOrgPreferences(orgId, { ...(await nodes[0]!.getOrgPreferences(orgId)), ...patch });
  const admin = { ref: "user:admin", ip: null, userAgent: null };
  await recordAudit(nodes[0]!, orgId, admin as never, "preferences.update", orgId, { changed: Object.keys(patch) }, at);
}

test("a budget changed since the month ended does not judge that month: lowered for the new month, the old one reached no new threshold", async () => {
  const n = notifierOf(nodes[0]!);
  const lastCheck = Date.UTC(2026, 10, 30, 23, 57);
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(6_000_000, lastCheck - 60_000)], keyTouches: [] });
  expect(await checkBudget(nodes[0]!, n, orgId, lastCheck)).toEqual([50]);
  // December's budget is $5: $6 was 60% of November's $10, not 120% of a budget November never had.
  await changeSettings(Date.UTC(2026, 11, 1, 0, 1), { monthlyBudgetCents: 500 });
  expect(await checkBudget(nodes[0]!, n, orgId, Date.UTC(2026, 11, 1, 0, 2))).toEqual([]);
  await n.idle();
  expect((await budgetNotes()).map((x) => [x.body.month, x.body.threshold])).toEqual([["2026-11", 50]]);
});

test("another setting changed since the month ended leaves that month's late threshold announced", async () => {
  const n = notifierOf(nodes[0]!);
  const lastCheck = Date.UTC(2026, 10, 30, 23, 57);
  // A budget set before the month ended is the month's own.
  await changeSettings(Date.UTC(2026, 10, 30, 12), { monthlyBudgetCents: 1000 });
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(6_000_000, lastCheck - 60_000)], keyTouches: [] });
  expect(await checkBudget(nodes[0]!, n, orgId, lastCheck)).toEqual([50]);
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(2_000_000, Date.UTC(2026, 10, 30, 23, 58))], keyTouches: [] });
  await changeSettings(Date.UTC(2026, 11, 1, 0, 1), { piiAction: "block" });
  expect(await checkBudget(nodes[0]!, n, orgId, Date.UTC(2026, 11, 1, 0, 2))).toEqual([75]);
});

test("pruning keeps this month's and the last month's budget notifications: a pruning node's clock ahead does not let a threshold be announced again", async () => {
  // A 31-day month's thresholds are checked until the end of the next month's first day: 32 days after its start,
  // the shortest retention allowed. A node whose clock runs two minutes ahead prunes by its own clock.
  const early = Date.UTC(2026, 9, 1, 0, 0, 30);
  await nodes[0]!.writeFlush({ id: crypto.randomUUID(), events: [spend(8_000_000, Date.UTC(2026, 9, 1, 0, 0, 10))], keyTouches: [] });
  expect(await checkBudget(nodes[0]!, notifierOf(nodes[0]!, early), orgId, early)).toEqual([50, 75]);
  const lastCheck = Date.UTC(2026, 10, 1, 23, 59);
  const retention = { usageDays: 30, auditDays: 365, notificationDays: 32 };
  await runMaintenance(nodes[1]!, retention, lastCheck + 120_000);
  const n = notifierOf(nodes[0]!, lastCheck);
  expect(await checkBudget(nodes[0]!, n, orgId, lastCheck)).toEqual([]);
  // A retention shorter than a month (the store's own guarantee, whatever the configuration allows) keeps them too.
  await runMaintenance(nodes[1]!, { ...retention, notificationDays: 1 }, lastCheck);
  expect(await checkBudget(nodes[0]!, n, orgId, lastCheck)).toEqual([]);
  await n.idle();
  // Both were written at the same moment, so the list's order between them is the store's: compared as a set.
  const kept = (await budgetNotes()).map((x) => [x.body.month, x.body.threshold]);
  expect(kept.sort()).toEqual([
    ["2026-10", 50],
    ["2026-10", 75],
  ]);
  // Two months on, they go as the retention says.
  await runMaintenance(nodes[1]!, retention, Date.UTC(2027, 0, 1));
  expect(await budgetNotes()).toEqual([]);
});
