/**
 * The behaviour every Store implementation must have. SQLite runs it now; the
 * Postgres store will call the same function with its own factory.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { newId } from "../../src/domain/ids.ts";
import type { ApiKeyRecord, AuditEntry, Organization, ProviderConfigRecord, ServiceAccount, UsageEvent, User } from "../../src/domain/types.ts";
import type { Store } from "../../src/store/store.ts";

export function runStoreContract(name: string, makeStore: () => Promise<Store>) {
  describe(`${name}: Store contract`, () => {
    let store: Store;
    let org: Organization;
    let user: User;
    let sa: ServiceAccount;

    const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
      id: newId("key"),
      orgId: org.id,
      serviceAccountId: sa.id,
      name: "k",
      keyHash: crypto.randomUUID(),
      keyPrefix: "gw_live_abcd",
      keyType: "live",
      proxyMode: "security_enhanced",
      spendCapCents: null,
      monthlyCapCents: null,
      spentMicros: 0,
      requestCount: 0,
      lastUsedAt: null,
      createdAt: Date.now(),
      revokedAt: null,
      revokedReason: null,
      ...over,
    });

    const usage = (over: Partial<UsageEvent> = {}): UsageEvent => ({
      id: newId("evt"),
      requestId: crypto.randomUUID(),
      orgId: org.id,
      keyId: null,
      userId: null,
      provider: "openai",
      model: "gpt-4o",
      promptTokens: 10,
      completionTokens: 5,
      costMicros: 100,
      latencyMs: 20,
      status: 200,
      errorCode: null,
      createdAt: Date.now(),
      ...over,
    });

    beforeEach(async () => {
      store = await makeStore();
      await store.migrate();
      org = { id: newId("org"), name: "Acme", tier: "enterprise", createdAt: 1 };
      await store.createOrganization(org);
      user = { id: newId("usr"), orgId: org.id, email: "ann@acme.test", role: "admin", createdAt: 2 };
      await store.createUser(user);
      sa = { id: newId("sa"), orgId: org.id, name: "bot", description: "", role: "member", createdBy: user.id, createdAt: 3 };
      await store.createServiceAccount(sa);
    });

    test("migrate is idempotent", async () => {
      await store.migrate();
      await store.migrate();
      expect(await store.getOrganization(org.id)).toEqual(org);
    });

    test("organizations and users; e-mail lookups ignore case; e-mails are unique", async () => {
      expect(await store.listOrganizations()).toEqual([org]);
      expect(await store.getUser(user.id)).toEqual(user);
      expect((await store.getUserByEmail("ANN@acme.TEST"))?.id).toBe(user.id);
      expect(await store.getUserByEmail("nobody@acme.test")).toBeNull();
      expect(store.createUser({ ...user, id: newId("usr"), email: "Ann@Acme.test" })).rejects.toThrow();
      expect(await store.listUsers(org.id)).toHaveLength(1);
    });

    test("keys: create, principal by hash (joined), list, revoke once, update", async () => {
      const k = key({ spendCapCents: 10 });
      await store.createApiKey(k);
      const p = await store.getKeyPrincipalByHash(k.keyHash);
      expect(p?.key).toEqual(k);
      expect(p?.serviceAccount).toEqual(sa);
      expect(p?.organization).toEqual(org);
      expect(await store.getKeyPrincipalByHash("missing")).toBeNull();
      const revoked = await store.revokeApiKey(k.id, 500, "leaked");
      expect(revoked).toMatchObject({ revokedAt: 500, revokedReason: "leaked" });
      expect((await store.revokeApiKey(k.id, 900, "again"))?.revokedAt).toBe(500);
      const other = key();
      await store.createApiKey(other);
      expect((await store.listApiKeys(org.id, { includeRevoked: false })).map((x) => x.id)).toEqual([other.id]);
      expect(await store.listApiKeys(org.id, { includeRevoked: true })).toHaveLength(2);
      expect(await store.updateApiKey(other.id, { name: "renamed", monthlyCapCents: 7 })).toMatchObject({ name: "renamed", monthlyCapCents: 7, spendCapCents: null });
      expect(await store.updateApiKey("key_missing", { name: "x" })).toBeNull();
    });

    test("sessions", async () => {
      await store.createSession({ idHash: "s1", userId: user.id, createdAt: 10, lastSeenAt: 10 });
      await store.touchSession("s1", 50);
      expect((await store.getSession("s1"))?.lastSeenAt).toBe(50);
      await store.createSession({ idHash: "s2", userId: user.id, createdAt: 10, lastSeenAt: 10 });
      expect(await store.deleteSessionsIdleSince(20)).toBe(1);
      await store.deleteSession("s1");
      expect(await store.getSession("s1")).toBeNull();
    });

    test("a user's sessions are listed newest use first and end together", async () => {
      await store.createSession({ idHash: "u1", userId: user.id, createdAt: 10, lastSeenAt: 30 });
      await store.createSession({ idHash: "u2", userId: user.id, createdAt: 10, lastSeenAt: 40 });
      expect((await store.listUserSessions(user.id)).map((s) => s.idHash)).toEqual(["u2", "u1"]);
      expect(await store.deleteUserSessions(user.id)).toBe(2);
      expect(await store.listUserSessions(user.id)).toEqual([]);
    });

    test("a member's role changes; removing a member removes their sessions and links", async () => {
      const bob: User = { id: newId("usr"), orgId: org.id, email: "bob@acme.test", role: "member", createdAt: 5 };
      await store.createUser(bob);
      expect(await store.updateUserRole(bob.id, "admin")).toEqual({ ...bob, role: "admin" });
      expect(await store.updateUserRole("usr_missing", "admin")).toBeNull();
      await store.createSession({ idHash: "b1", userId: bob.id, createdAt: 10, lastSeenAt: 10 });
      await store.createLoginLink({ tokenHash: "bl", userId: bob.id, expiresAt: 1000, usedAt: null });
      expect(await store.removeUser(bob.id)).toBe(true);
      expect(await store.getUser(bob.id)).toBeNull();
      expect(await store.getSession("b1")).toBeNull();
      expect(await store.consumeLoginLink("bl", 1)).toBeNull();
      expect(await store.removeUser(bob.id)).toBe(false);
    });

    test("deleting a service account deletes its keys", async () => {
      const k = key();
      await store.createApiKey(k);
      expect(await store.deleteServiceAccount(sa.id)).toBe(true);
      expect(await store.getApiKey(k.id)).toBeNull();
      expect(await store.listServiceAccounts(org.id)).toEqual([]);
      expect(await store.deleteServiceAccount(sa.id)).toBe(false);
    });

    test("a key scheduled to stop later can still be revoked sooner, never later", async () => {
      const k = key();
      await store.createApiKey(k);
      await store.revokeApiKey(k.id, 1000, "rotated");
      expect((await store.revokeApiKey(k.id, 2000, "later"))?.revokedAt).toBe(1000);
      expect(await store.revokeApiKey(k.id, 500, "leaked")).toMatchObject({ revokedAt: 500, revokedReason: "leaked" });
    });

    test("a login link is consumed once and never after it expires", async () => {
      await store.createLoginLink({ tokenHash: "t1", userId: user.id, expiresAt: 1000, usedAt: null });
      await store.createLoginLink({ tokenHash: "t2", userId: user.id, expiresAt: 1000, usedAt: null });
      expect(await store.consumeLoginLink("t1", 500)).toMatchObject({ userId: user.id, usedAt: 500 });
      expect(await store.consumeLoginLink("t1", 600)).toBeNull();
      expect(await store.consumeLoginLink("t2", 1000)).toBeNull();
      expect(await store.consumeLoginLink("nope", 1)).toBeNull();
    });

    test("audit pages newest first", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        const e: AuditEntry = { id: newId("aud"), orgId: org.id, actor: "cli", action: `a${i}`, target: null, ip: null, userAgent: null, createdAt: i, details: { i } };
        ids.push(e.id);
        await store.appendAudit(e);
      }
      const p1 = await store.listAudit(org.id, { limit: 10, before: null });
      const p2 = await store.listAudit(org.id, { limit: 10, before: p1.nextBefore });
      const p3 = await store.listAudit(org.id, { limit: 10, before: p2.nextBefore });
      expect([p1.entries.length, p2.entries.length, p3.entries.length]).toEqual([10, 10, 5]);
      expect(p3.nextBefore).toBeNull();
      expect([...p1.entries, ...p2.entries, ...p3.entries].map((e) => e.id)).toEqual([...ids].reverse());
      expect(p1.entries[0]?.details).toEqual({ i: 24 });
    });

    test("preferences default and round-trip", async () => {
      expect((await store.getOrgPreferences(org.id)).piiAction).toBe("redact");
      await store.setOrgPreferences(org.id, { monthlyBudgetCents: 5, piiAction: "block", alertWebhookUrl: null, defaultRouteStrategy: "cost", signInEmailDomains: ["acme.test"] });
      expect(await store.getOrgPreferences(org.id)).toMatchObject({ monthlyBudgetCents: 5, piiAction: "block", defaultRouteStrategy: "cost", signInEmailDomains: ["acme.test"] });
      expect(await store.getPersonalPreferences(user.id)).toEqual({ timezone: "UTC", emailNotifications: true });
      await store.setPersonalPreferences(user.id, { timezone: "Europe/Paris", emailNotifications: false });
      expect((await store.getPersonalPreferences(user.id)).timezone).toBe("Europe/Paris");
    });

    test("provider configurations", async () => {
      const p: ProviderConfigRecord = {
        id: newId("prv"), orgId: org.id, ownerUserId: null, provider: "openai", name: "openai", baseUrl: null, country: "US",
        format: "chat", models: ["a"], limits: { requestsPerMinute: 5 }, settings: { region: "x" }, secretCiphertext: "c", keyHint: "sk-...abcd", createdAt: 1, updatedAt: 1,
      };
      await store.createProviderConfig(p);
      expect(await store.getProviderConfig(p.id)).toEqual(p);
      await store.updateProviderConfig({ ...p, name: "renamed", updatedAt: 2 });
      expect((await store.listProviderConfigs(org.id))[0]).toMatchObject({ name: "renamed", updatedAt: 2, limits: { requestsPerMinute: 5 } });
      expect(await store.deleteProviderConfig(p.id)).toBe(true);
      expect(await store.deleteProviderConfig(p.id)).toBe(false);
    });

    test("a flush writes events, hourly roll-ups and key counters in one go; flushes accumulate", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_000;
      await store.writeFlush({
        events: [usage({ keyId: k.id, createdAt: hour + 5 }), usage({ keyId: k.id, createdAt: hour + 10, status: 502, costMicros: 0 })],
        keyTouches: [{ keyId: k.id, requests: 2, spendMicros: 100, lastUsedAt: hour + 10 }],
      });
      await store.writeFlush({
        events: [usage({ keyId: k.id, createdAt: hour + 20 })],
        keyTouches: [{ keyId: k.id, requests: 1, spendMicros: 100, lastUsedAt: hour + 1 }],
      });
      expect(await store.countUsageEvents(org.id)).toBe(3);
      const rows = await store.listUsageHourly(org.id, hour, hour + 3_600_000);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ hour, keyId: k.id, requests: 3, errors: 1, promptTokens: 30, completionTokens: 15, costMicros: 200, latencyMsSum: 60 });
      expect(await store.getApiKey(k.id)).toMatchObject({ requestCount: 3, spentMicros: 200, lastUsedAt: hour + 10 });
      expect(await store.sumCostMicros(org.id, k.id, hour)).toBe(200);
      expect(await store.sumCostMicros(org.id, null, hour + 15)).toBe(200); // rounded down to the hour
      expect(await store.sumCostMicros(org.id, null, hour + 3_600_000)).toBe(0);
      expect(await store.pruneUsageEvents(hour + 15)).toBe(2);
      expect(await store.sumCostMicros(org.id, k.id, hour)).toBe(200); // pruning raw rows keeps the sums
      expect(await store.countUsageEvents(org.id)).toBe(1);
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toHaveLength(1);
    });

    test("a flush larger than one statement's rows writes every event once", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_100;
      // Across two full statements and a partial one, with an error in each.
      const events = Array.from({ length: 150 }, (_, i) => usage({ keyId: k.id, createdAt: hour + i, status: i % 64 === 0 ? 500 : 200 }));
      await store.writeFlush({ events, keyTouches: [{ keyId: k.id, requests: 150, spendMicros: 15_000, lastUsedAt: hour + 149 }] });
      const before = await store.countUsageEvents(org.id);
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([{ requests: 150, errors: 3, promptTokens: 1_500 }]);
      expect(await store.pruneUsageEvents(hour + 150)).toBeGreaterThanOrEqual(150);
      expect(before - (await store.countUsageEvents(org.id))).toBeGreaterThanOrEqual(150);
    });

    test("notifications, newest first", async () => {
      for (let i = 0; i < 3; i++) {
        await store.createNotification({ id: newId("ntf"), orgId: org.id, kind: "rate_limit", severity: "warning", title: `t${i}`, body: { i }, createdAt: i, readAt: null });
      }
      const list = await store.listNotifications(org.id, 2);
      expect(list.map((n) => n.title)).toEqual(["t2", "t1"]);
      expect(list[0]?.body).toEqual({ i: 2 });
    });
  });
}
