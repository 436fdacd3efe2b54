/** Each listed notification shows its own webhook attempts, however many newer notifications were posted since. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../../src/domain/ids.ts";
import { webhookOutcomes } from "../../../src/services/alerts/delivery-log.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";

let store: SqliteStore;
let orgId: string;

beforeEach(async () => {
  store = new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-delivery-log-")), "gateway.db"));
  await store.migrate();
  orgId = newId("org");
  await store.createOrganization({ id: orgId, name: "Acme", tier: "enterprise", createdAt: 1 });
});
afterEach(() => store.close());

async function posted(createdAt: number, statuses: number[]): Promise<string> {
  const id = newId("ntf");
  await store.createNotification({ id, orgId, kind: "rate_limit.status", severity: "warning", title: "t", body: {}, createdAt });
  for (const [i, status] of statuses.entries())
    await store.recordWebhookDelivery({
      id: newId("whd"),
      orgId,
      notificationId: id,
      attempt: i + 1,
      status,
      error: status < 300 ? null : `HTTP ${status}`,
      createdAt: createdAt + i,
    });
  return id;
}

test("an old notification listed alone (unread, say) still shows its delivery after newer ones' many attempts", async () => {
  const old = await posted(1_000, [503, 204]);
  for (let i = 0; i < 30; i++) await posted(10_000 + i * 10, [503, 503, 503, 503]);
  const outcome = (await webhookOutcomes(store, orgId, [old])).get(old);
  expect(outcome?.delivered).toBe(true);
  expect(outcome?.attempts.map((a) => a.status)).toEqual([503, 204]);
});

test("outcomes of a page: each its own attempts, oldest first; a notification never posted has none", async () => {
  const a = await posted(1_000, [204]);
  const b = await posted(2_000, [500, 500, 500, 500]);
  const quiet = await posted(3_000, []);
  const other = newId("org");
  await store.createOrganization({ id: other, name: "Other", tier: "starter", createdAt: 1 });
  const out = await webhookOutcomes(store, other, [a]);
  expect(out.size).toBe(0);
  const mine = await webhookOutcomes(store, orgId, [a, b, quiet]);
  expect(mine.get(a)).toMatchObject({ delivered: true, attempts: [{ attempt: 1, status: 204, error: null }] });
  expect(mine.get(b)?.delivered).toBe(false);
  expect(mine.get(b)?.attempts.map((x) => x.attempt)).toEqual([1, 2, 3, 4]);
  expect(mine.has(quiet)).toBe(false);
});
