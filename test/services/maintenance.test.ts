import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../src/domain/ids.ts";
import { runMaintenance } from "../../src/services/maintenance.ts";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.ts";

test("prunes raw usage, optimized documents (totals and the newest stay), audit entries and notifications past their retention (roll-ups stay) and idle sessions", async () => {
  const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-maint-")), "g.db"));
  await store.migrate();
  const now = Date.UTC(2026, 10, 22);
  const day = 86_400_000;
  await store.createOrganization({ id: "o1", name: "o", tier: "starter", createdAt: 0 });
  await store.createUser({ id: "u1", orgId: "o1", email: "u@x.test", role: "admin", createdAt: 0 });
  const event = (createdAt: number) => ({
    id: newId("evt"),
    requestId: "r",
    orgId: "o1",
    keyId: null,
    userId: null,
    provider: "openai",
    model: "m",
    promptTokens: 1,
    completionTokens: 1,
    costMicros: 1,
    latencyMs: 1,
    status: 200,
    errorCode: null,
    createdAt,
  });
  await store.writeFlush({ id: crypto.randomUUID(), events: [event(now - 31 * day), event(now - 29 * day)], keyTouches: [] });
  await store.createSession({ idHash: "old", userId: "u1", createdAt: 0, lastSeenAt: now - 2 * day });
  await store.createSession({ idHash: "fresh", userId: "u1", createdAt: 0, lastSeenAt: now - 1000 });

  for (const [id, createdAt] of [
    ["aud_old", now - 366 * day],
    ["aud_new", now - 364 * day],
  ] as const)
    await store.appendAudit({ id, orgId: "o1", actor: "u1", action: "x", target: null, ip: null, userAgent: null, createdAt, details: {} });

  for (const [id, createdAt] of [
    ["ntf_old", now - 91 * day],
    ["ntf_new", now - 89 * day],
  ] as const)
    await store.createNotification({ id, orgId: "o1", kind: "budget.threshold", severity: "info", title: "t", body: {}, createdAt });

  // 11 documents past the usage retention and one within it: the metrics' newest ten stay whatever their age.
  for (const createdAt of [...Array.from({ length: 11 }, (_, i) => now - 31 * day - i), now - day])
    await store.recordEtlDocument({
      id: newId("doc"),
      orgId: "o1",
      createdAt,
      originalTokens: 10,
      optimizedTokens: 8,
      costSavingsMicros: 1,
      transformations: ["compression"],
    });
  const etlTotals = await store.getEtlTotals("o1");

  expect(await runMaintenance(store, { usageDays: 30, auditDays: 365, notificationDays: 90 }, now)).toEqual({
    usageEvents: 1,
    // The flush itself was written today, after `now`: its id is not a day old.
    usageFlushes: 0,
    etlDocuments: 2,
    auditEntries: 1,
    notifications: 1,
    sessions: 1,
  });
  expect((await store.listNotifications("o1", 10)).map((n) => n.id)).toEqual(["ntf_new"]);
  expect((await store.listAudit("o1", { limit: 10, before: null })).entries.map((e) => e.id)).toEqual(["aud_new"]);
  expect(await store.countUsageEvents("o1")).toBe(1);
  expect(await store.listUsageHourly("o1", 0, now)).toHaveLength(2);
  expect(await store.getSession("fresh")).not.toBeNull();
  expect((await store.listEtlDocuments("o1", 100)).map((d) => d.createdAt)).toEqual([
    now - day,
    ...Array.from({ length: 9 }, (_, i) => now - 31 * day - i),
  ]);
  expect(await store.getEtlTotals("o1")).toEqual(etlTotals);
  expect(etlTotals).toMatchObject({ documents: 12, originalTokens: 120, transformations: { compression: 12 } });
});

test("a usage flush's id is kept a day, recognizing a retry meanwhile, then pruned", async () => {
  const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-maint-")), "g.db"));
  await store.migrate();
  await store.createOrganization({ id: "o1", name: "o", tier: "starter", createdAt: 0 });
  const day = 86_400_000;
  const retention = { usageDays: 30, auditDays: 365, notificationDays: 90 };
  const writtenAt = Date.now();
  const event = { id: newId("evt"), requestId: "r", orgId: "o1", keyId: null, userId: null, provider: "openai", model: "m" };
  const counts = { promptTokens: 1, completionTokens: 1, costMicros: 1, latencyMs: 1, status: 200, errorCode: null };
  const batch = { id: crypto.randomUUID(), events: [{ ...event, ...counts, createdAt: writtenAt }], keyTouches: [] };
  await store.writeFlush(batch);
  expect((await runMaintenance(store, retention, writtenAt + day - 60_000)).usageFlushes).toBe(0);
  await store.writeFlush(batch);
  expect(await store.countUsageEvents("o1")).toBe(1);
  expect((await runMaintenance(store, retention, writtenAt + day + 60_000)).usageFlushes).toBe(1);
});
