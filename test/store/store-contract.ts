/**
 * The behaviour every Store implementation must have: sqlite-store.test.ts and
 * postgres-store.test.ts (a private Postgres) call it, each with its own factory.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { newId } from "../../src/domain/ids.ts";
import type {
  ApiKeyRecord,
  AuditEntry,
  EtlDocument,
  Organization,
  ProviderConfigRecord,
  ServiceAccount,
  UsageEvent,
  User,
} from "../../src/domain/types.ts";
import { RowsRefused } from "../../src/store/rows-refused.ts";
import type { Store } from "../../src/store/store.ts";
import { UsageBuffer } from "../../src/state/usage-buffer.ts";
import { apiKeyRecord, providerConfigRecord, usageEvent } from "../support/records.ts";

export function runStoreContract(name: string, makeStore: () => Promise<Store>) {
  describe(`${name}: Store contract`, () => {
    let store: Store;
    let org: Organization;
    let user: User;
    let sa: ServiceAccount;

    const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => apiKeyRecord(org.id, sa.id, over);

    const usage = (over: Partial<UsageEvent> = {}): UsageEvent => usageEvent(org.id, null, over);

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

    test("the master key's check value: the first recorded stands, whoever claims after", async () => {
      expect(await store.masterKeyCheck()).toBeNull();
      expect(await store.claimMasterKeyCheck("a".repeat(32), 1)).toBe("a".repeat(32));
      expect(await store.claimMasterKeyCheck("b".repeat(32), 2)).toBe("a".repeat(32));
      expect(await store.claimMasterKeyCheck("a".repeat(32), 3)).toBe("a".repeat(32));
      expect(await store.masterKeyCheck()).toBe("a".repeat(32));
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
      expect(await store.updateApiKey(other.id, { name: "renamed", monthlyCapCents: 7 })).toMatchObject({
        name: "renamed",
        monthlyCapCents: 7,
        spendCapCents: null,
      });
      expect(await store.updateApiKey(other.id, { spendCapCents: 9 })).toMatchObject({
        name: "renamed",
        monthlyCapCents: 7,
        spendCapCents: 9,
      });
      expect(await store.updateApiKey(other.id, { monthlyCapCents: null })).toMatchObject({ monthlyCapCents: null, spendCapCents: 9 });
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
        const e: AuditEntry = {
          id: newId("aud"),
          orgId: org.id,
          actor: "cli",
          action: `a${i}`,
          target: null,
          ip: null,
          userAgent: null,
          createdAt: i,
          details: { i },
        };
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
      // Counted by action and target over a window: a24 and a23 are outside [0, 23).
      const counted = await store.countAudit(org.id, ["a1", "a2", "a24", "none"], 0, 23);
      expect(counted.sort((x, y) => x.action.localeCompare(y.action))).toEqual([
        { action: "a1", target: null, count: 1 },
        { action: "a2", target: null, count: 1 },
      ]);
      expect(await store.countAudit(org.id, [], 0, 100)).toEqual([]);
      // Retention: entries created before the cutoff go, the rest stay in order.
      expect(await store.pruneAuditEntries(20)).toBe(20);
      expect((await store.listAudit(org.id, { limit: 10, before: null })).entries.map((e) => e.id)).toEqual(ids.slice(20).reverse());
    });

    test("preferences default and round-trip", async () => {
      expect((await store.getOrgPreferences(org.id)).piiAction).toBe("redact");
      await store.setOrgPreferences(org.id, {
        monthlyBudgetCents: 5,
        piiAction: "block",
        alertWebhookUrl: null,
        defaultRouteStrategy: "cost",
        fallbackModels: { "gpt-4o": ["claude-haiku-4-5"] },
        signInEmailDomains: ["acme.test"],
        contextOptimizer: true,
        alertCheckIntervalS: 60,
        security: { injection: "flag", secrets: "block", pii: "block" },
        phoneRegion: "PL",
      });
      expect(await store.getOrgPreferences(org.id)).toMatchObject({
        security: { injection: "flag", secrets: "block", pii: "block" },
        monthlyBudgetCents: 5,
        piiAction: "block",
        defaultRouteStrategy: "cost",
        fallbackModels: { "gpt-4o": ["claude-haiku-4-5"] },
        signInEmailDomains: ["acme.test"],
        contextOptimizer: true,
        alertCheckIntervalS: 60,
        phoneRegion: "PL",
      });
      expect(await store.getPersonalPreferences(user.id)).toEqual({ timezone: "UTC", emailNotifications: true });
      await store.setPersonalPreferences(user.id, { timezone: "Europe/Paris", emailNotifications: false });
      expect((await store.getPersonalPreferences(user.id)).timezone).toBe("Europe/Paris");
    });

    test("provider configurations", async () => {
      const p = providerConfigRecord(org.id, {
        name: "openai",
        models: ["a"],
        limits: { requestsPerMinute: 5 },
        settings: { region: "x" },
      });
      expect(await store.createProviderConfig(p, 100)).toBe(true);
      expect(await store.getProviderConfig(p.id)).toEqual(p);
      await store.updateProviderConfig({ ...p, name: "renamed", updatedAt: 2 });
      expect((await store.listProviderConfigs(org.id))[0]).toMatchObject({
        name: "renamed",
        updatedAt: 2,
        limits: { requestsPerMinute: 5 },
      });
      expect(await store.deleteProviderConfig(p.id)).toBe(true);
      expect(await store.deleteProviderConfig(p.id)).toBe(false);
    });

    test("a provider configuration is not written past the organization's bound, however many are created at once", async () => {
      const config = (i: number, orgId = org.id) => providerConfigRecord(orgId, { name: `p${i}`, createdAt: i, updatedAt: i });
      const written = await Promise.all(Array.from({ length: 30 }, (_, i) => store.createProviderConfig(config(i), 12)));
      expect(written.filter(Boolean)).toHaveLength(12);
      expect(await store.listProviderConfigs(org.id)).toHaveLength(12);
      // The bound is the organization's own: another one's configurations do not count.
      const other = { id: newId("org"), name: "Other", tier: "enterprise" as const, createdAt: 1 };
      await store.createOrganization(other);
      expect(await store.createProviderConfig(config(99, other.id), 12)).toBe(true);
      // One deleted frees its place.
      expect(await store.deleteProviderConfig((await store.listProviderConfigs(org.id))[0]!.id)).toBe(true);
      expect(await store.createProviderConfig(config(100), 12)).toBe(true);
      expect(await store.createProviderConfig(config(101), 12)).toBe(false);
    });

    test("invitations: saved, renewed, pending until accepted", async () => {
      await store.saveInvitation({ orgId: org.id, email: "new@acme.test", role: "member", createdAt: 1, expiresAt: 11, acceptedAt: null });
      await store.saveInvitation({ orgId: org.id, email: "new@acme.test", role: "admin", createdAt: 2, expiresAt: 12, acceptedAt: null });
      expect(await store.getInvitation(org.id, "new@acme.test")).toEqual({
        orgId: org.id,
        email: "new@acme.test",
        role: "admin",
        createdAt: 2,
        expiresAt: 12,
        acceptedAt: null,
      });
      expect((await store.listPendingInvitations(org.id)).map((i) => i.email)).toContain("new@acme.test");
      await store.acceptInvitation(org.id, "new@acme.test", 3);
      expect((await store.getInvitation(org.id, "new@acme.test"))?.acceptedAt).toBe(3);
      expect((await store.listPendingInvitations(org.id)).map((i) => i.email)).not.toContain("new@acme.test");
      expect(await store.getInvitation(org.id, "nobody@acme.test")).toBeNull();
      expect(await store.deleteInvitation(org.id, "new@acme.test")).toBe(true);
      expect(await store.getInvitation(org.id, "new@acme.test")).toBeNull();
      expect(await store.deleteInvitation(org.id, "new@acme.test")).toBe(false);
    });

    test("sign-in domain approvals: one organization per domain, the first approval stands, revoked once", async () => {
      const other = { id: "org_other_domains", name: "Other", tier: "starter" as const, createdAt: 1 };
      await store.createOrganization(other);
      expect(await store.approveSignInDomain({ domain: "acme.test", orgId: org.id, approvedAt: 5 })).toEqual({
        domain: "acme.test",
        orgId: org.id,
        approvedAt: 5,
      });
      // Another organization's approval of the same domain changes nothing; approving again keeps the first time.
      expect(await store.approveSignInDomain({ domain: "acme.test", orgId: other.id, approvedAt: 6 })).toMatchObject({
        orgId: org.id,
        approvedAt: 5,
      });
      expect(await store.approveSignInDomain({ domain: "acme.test", orgId: org.id, approvedAt: 7 })).toMatchObject({ approvedAt: 5 });
      await store.approveSignInDomain({ domain: "a.other.test", orgId: other.id, approvedAt: 8 });
      expect((await store.listSignInDomainApprovals()).map((a) => [a.domain, a.orgId])).toEqual([
        ["a.other.test", other.id],
        ["acme.test", org.id],
      ]);
      expect(await store.getSignInDomainApproval("nobody.test")).toBeNull();
      expect(await store.revokeSignInDomain("acme.test")).toEqual({ domain: "acme.test", orgId: org.id, approvedAt: 5 });
      expect(await store.revokeSignInDomain("acme.test")).toBeNull();
      expect(await store.getSignInDomainApproval("acme.test")).toBeNull();
      expect(await store.revokeSignInDomain("a.other.test")).toMatchObject({ orgId: other.id });
    });

    test("a person's providers disabled: only theirs, once, kept through updates", async () => {
      const base = (over: Partial<ProviderConfigRecord>) => providerConfigRecord(org.id, over);
      const mine = base({ ownerUserId: "usr_leaving", name: "mine" });
      const shared = base({ name: "shared" });
      for (const p of [mine, shared]) await store.createProviderConfig(p, 100);
      const disabled = await store.disableUserProviders(org.id, "usr_leaving", 5, "owner left");
      expect(disabled.map((p) => [p.id, p.disabled])).toEqual([[mine.id, { at: 5, reason: "owner left" }]]);
      expect(await store.disableUserProviders(org.id, "usr_leaving", 6, "again")).toEqual([]);
      await store.updateProviderConfig({ ...mine, name: "renamed", updatedAt: 7 });
      expect((await store.getProviderConfig(mine.id))?.disabled).toEqual({ at: 5, reason: "owner left" });
      expect((await store.getProviderConfig(shared.id))?.disabled).toBeUndefined();
      for (const p of [mine, shared]) await store.deleteProviderConfig(p.id);
    });

    test("a flush writes events, hourly roll-ups and key counters in one go; flushes accumulate", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_000;
      await store.writeFlush({
        id: crypto.randomUUID(),
        events: [usage({ keyId: k.id, createdAt: hour + 5 }), usage({ keyId: k.id, createdAt: hour + 10, status: 502, costMicros: 0 })],
        keyTouches: [{ keyId: k.id, requests: 2, spendMicros: 100, lastUsedAt: hour + 10 }],
      });
      await store.writeFlush({
        id: crypto.randomUUID(),
        // The fallback that answered after the failure above: its row says it was the second attempt.
        events: [
          usage({
            keyId: k.id,
            createdAt: hour + 20,
            attempts: 2,
            priceEstimated: true,
            applicationId: "billing",
            cacheReadTokens: 6,
            cacheWriteTokens: 3,
          }),
        ],
        keyTouches: [{ keyId: k.id, requests: 1, spendMicros: 100, lastUsedAt: hour + 1 }],
      });
      expect(await store.countUsageEvents(org.id)).toBe(3);
      const events = await store.listUsageEvents(org.id);
      // An event written without `attempts` took one.
      expect(events.map((e) => [e.createdAt, e.status, e.costMicros, e.keyId, e.attempts])).toEqual([
        [hour + 5, 200, 100, k.id, 1],
        [hour + 10, 502, 0, k.id, 1],
        [hour + 20, 200, 100, k.id, 2],
      ]);
      // Read back as written: the estimated price, the application and the cache tokens (none written: 0).
      expect(events.map((e) => [e.priceEstimated, e.applicationId, e.cacheReadTokens, e.cacheWriteTokens])).toEqual([
        [false, null, 0, 0],
        [false, null, 0, 0],
        [true, "billing", 6, 3],
      ]);
      expect(events[1]).toMatchObject({
        orgId: org.id,
        userId: null,
        provider: "openai",
        model: "gpt-4o",
        promptTokens: 10,
        completionTokens: 5,
        latencyMs: 20,
        errorCode: null,
      });
      const rows = await store.listUsageHourly(org.id, hour, hour + 3_600_000);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        hour,
        keyId: k.id,
        requests: 3,
        errors: 1,
        promptTokens: 30,
        completionTokens: 15,
        costMicros: 200,
        latencyMsSum: 60,
        cacheReadTokens: 6,
        cacheWriteTokens: 3,
      });
      expect(await store.getApiKey(k.id)).toMatchObject({ requestCount: 3, spentMicros: 200, lastUsedAt: hour + 10 });
      expect(await store.sumCostMicros(org.id, k.id, hour)).toBe(200);
      expect(await store.sumCostMicros(org.id, null, hour + 15)).toBe(200); // rounded down to the hour
      expect(await store.sumCostMicros(org.id, null, hour + 3_600_000)).toBe(0);
      expect(await store.pruneUsageEvents(hour + 15)).toBe(2);
      expect(await store.sumCostMicros(org.id, k.id, hour)).toBe(200); // pruning raw rows keeps the sums
      expect(await store.countUsageEvents(org.id)).toBe(1);
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toHaveLength(1);
    });

    test("a rotated line of keys sums as one: lifetime spend and cost since a moment", async () => {
      const first = key({ spentMicros: 300 });
      const second = key({ spentMicros: 50, spendKeyId: first.id });
      const alone = key({ spentMicros: 7 });
      for (const k of [first, second, alone]) await store.createApiKey(k);
      expect((await store.getApiKey(second.id))?.spendKeyId).toBe(first.id);
      expect((await store.getApiKey(first.id))?.spendKeyId).toBeUndefined();
      expect(await store.keyLineSpentMicros(first.id)).toBe(350);
      expect(await store.keyLineSpentMicros(alone.id)).toBe(7);
      const hour = 3_600_000 * 500_050;
      await store.writeFlush({
        id: crypto.randomUUID(),
        events: [usage({ keyId: first.id, createdAt: hour + 1 }), usage({ keyId: second.id, createdAt: hour + 2 })],
        keyTouches: [],
      });
      expect(await store.sumCostMicros(org.id, first.id, hour)).toBe(200);
      expect(await store.sumCostMicros(org.id, alone.id, hour)).toBe(0);
    });

    test("a flush larger than one statement's rows writes every event once", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_100;
      // Across two full statements and a partial one, with an error in each.
      const events = Array.from({ length: 150 }, (_, i) => usage({ keyId: k.id, createdAt: hour + i, status: i % 64 === 0 ? 500 : 200 }));
      await store.writeFlush({
        id: crypto.randomUUID(),
        events,
        keyTouches: [{ keyId: k.id, requests: 150, spendMicros: 15_000, lastUsedAt: hour + 149 }],
      });
      const before = await store.countUsageEvents(org.id);
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([
        { requests: 150, errors: 3, promptTokens: 1_500 },
      ]);
      expect(await store.pruneUsageEvents(hour + 150)).toBeGreaterThanOrEqual(150);
      expect(before - (await store.countUsageEvents(org.id))).toBeGreaterThanOrEqual(150);
    });

    test("every event reads back its own key, provider and model, whether its statement's rows share them or not", async () => {
      const keys = [key(), key()];
      for (const k of keys) await store.createApiKey(k);
      const hour = 3_600_000 * 500_150;
      const before = await store.countUsageEvents(org.id);
      // A run alike (no key), then rows that differ by key, by provider and model, by all three, one by one.
      const events = Array.from({ length: 200 }, (_, i) =>
        usage({
          createdAt: hour + i,
          keyId: i < 70 ? null : (keys[i % 2] as ApiKeyRecord).id,
          provider: i < 130 || i % 3 === 0 ? "openai" : "anthropic",
          model: i < 130 ? "gpt-4o" : `model-${i % 5}`,
          userId: i % 7 === 0 ? "usr_seventh" : null,
        }),
      );
      await store.writeFlush({ id: crypto.randomUUID(), events, keyTouches: [] });
      const fields = (e: UsageEvent) => [e.id, e.createdAt, e.keyId, e.provider, e.model, e.userId, e.orgId];
      const written = (await store.listUsageEvents(org.id)).filter((e) => e.createdAt >= hour && e.createdAt < hour + 200);
      expect(written.map(fields)).toEqual(events.map(fields));
      expect(await store.countUsageEvents(org.id)).toBe(before + 200);
      expect(await store.pruneUsageEvents(hour + 200)).toBeGreaterThanOrEqual(200);
    });

    test("a flush that fails writes nothing, not even its statements that ran, and the next flush goes through", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_200;
      const before = await store.countUsageEvents(org.id);
      const events = Array.from({ length: 150 }, (_, i) => usage({ keyId: k.id, createdAt: hour + i }));
      // The second statement's rows repeat an id of the first's: the first has run when it fails.
      events[100] = { ...(events[100] as UsageEvent), id: (events[10] as UsageEvent).id };
      const touches = [{ keyId: k.id, requests: 150, spendMicros: 15_000, lastUsedAt: hour + 149 }];
      await expect(store.writeFlush({ id: crypto.randomUUID(), events, keyTouches: touches })).rejects.toThrow();
      expect(await store.countUsageEvents(org.id)).toBe(before);
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toEqual([]);
      expect(await store.getApiKey(k.id)).toMatchObject({ requestCount: 0, spentMicros: 0, lastUsedAt: null });
      await store.writeFlush({ id: crypto.randomUUID(), events: events.slice(0, 100), keyTouches: touches });
      expect(await store.countUsageEvents(org.id)).toBe(before + 100);
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([{ requests: 100 }]);
      expect(await store.getApiKey(k.id)).toMatchObject({ requestCount: 150 });
      expect(await store.pruneUsageEvents(hour + 150)).toBeGreaterThanOrEqual(100);
    });

    test("a flush written again, as after a commit whose acknowledgement was lost, is stored once: rows, roll-ups and key counters", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_300;
      const events = Array.from({ length: 3 }, (_, i) => usage({ keyId: k.id, createdAt: hour + i }));
      const batch = { id: crypto.randomUUID(), events, keyTouches: [{ keyId: k.id, requests: 3, spendMicros: 300, lastUsedAt: hour + 2 }] };
      await store.writeFlush(batch);
      await store.writeFlush(batch);
      expect((await store.listUsageEvents(org.id)).filter((e) => e.createdAt >= hour).map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([{ requests: 3, costMicros: 300 }]);
      expect(await store.getApiKey(k.id)).toMatchObject({ requestCount: 3, spentMicros: 300 });
    });

    test("two nodes' flushes of one hour at the same moment add up in both roll-ups, and the budget's sum and the analytics' agree", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_400;
      const node = (n: number) =>
        Array.from({ length: 5 }, (_, i) => usage({ keyId: k.id, createdAt: hour + n * 100 + i, costMicros: 1_001 + n }));
      // Each node's batch is its own id; both land on the same hourly and daily rows.
      await Promise.all([0, 1, 2].map((n) => store.writeFlush({ id: crypto.randomUUID(), events: node(n), keyTouches: [] })));
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([
        { requests: 15, costMicros: 5 * (1_001 + 1_002 + 1_003) },
      ]);
      const day = Math.floor(hour / 86_400_000) * 86_400_000;
      const [daily] = await store.sumUsage(org.id, day, day + 86_400_000, { by: [], provider: null });
      expect(daily).toMatchObject({ requests: 15, costMicros: 15_030 });
      // What the spend caps read (hourly, from a moment) is the same sum.
      expect(await store.sumCostMicros(org.id, k.id, day)).toBe(15_030);
    });

    test("rows the store cannot hold are refused as such (RowsRefused), naming the database's code and not the row's values", async () => {
      const bad = usage({ provider: null as unknown as string, model: "secret-looking-model" });
      const refused = await store
        .writeFlush({ id: crypto.randomUUID(), events: [usage(), bad], keyTouches: [] })
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(RowsRefused);
      expect(String((refused as RowsRefused).message)).not.toContain("secret-looking-model");
      expect((refused as RowsRefused).code).toMatch(/^(?:23502|SQLITE_CONSTRAINT_NOTNULL)$/);
    });

    test("the write-behind buffer over this store writes every good row of a batch holding refused ones, sets those aside, and flushes on", async () => {
      const k = key();
      await store.createApiKey(k);
      const hour = 3_600_000 * 500_400;
      const refused: string[] = [];
      const buffer = new UsageBuffer({
        write: (b) => store.writeFlush(b),
        intervalMs: 60_000,
        maxEvents: 1_000_000,
        onRefused: (rows) => refused.push(...rows.events.map((e) => e.id)),
      });
      const events = Array.from({ length: 40 }, (_, i) => usage({ keyId: k.id, createdAt: hour + i, costMicros: 10 }));
      // Two rows no column can hold, among good ones.
      const bad = [7, 30].map((i) => {
        const e = { ...(events[i] as UsageEvent), provider: null as unknown as string };
        events[i] = e;
        return e.id;
      });
      for (const e of events) buffer.record(e);
      await buffer.flush();
      const later = usage({ keyId: k.id, createdAt: hour + 100, costMicros: 10 });
      buffer.record(later);
      await buffer.stop();
      const stored = (await store.listUsageEvents(org.id)).filter((e) => e.createdAt >= hour).map((e) => e.id);
      expect(stored).toEqual([...events.filter((e) => !bad.includes(e.id)).map((e) => e.id), later.id]);
      expect(refused).toEqual(bad);
      expect(buffer.stats()).toMatchObject({ refusedEvents: 2, failures: 0, pending: 0 });
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([{ requests: 39 }]);
      // The key's own counter still has every call's spend: each was made, whether or not its row could be kept.
      expect(await store.getApiKey(k.id)).toMatchObject({ spentMicros: 410 });
    });

    const notification = (over: { id?: string; title?: string; createdAt?: number; body?: Record<string, unknown> } = {}) => ({
      id: newId("ntf"),
      orgId: org.id,
      kind: "budget",
      severity: "info" as const,
      title: "t",
      body: {},
      createdAt: 0,
      ...over,
    });

    test("notifications, newest first", async () => {
      for (let i = 0; i < 3; i++) await store.createNotification(notification({ title: `t${i}`, body: { i }, createdAt: i }));
      const list = await store.listNotifications(org.id, 2);
      expect(list.map((n) => n.title)).toEqual(["t2", "t1"]);
      expect(list[0]?.body).toEqual({ i: 2 });
    });

    test("a notification id written twice is kept once, as first written (an alert meant once, from two nodes)", async () => {
      const id = newId("ntf");
      expect(await store.createNotification(notification({ id, title: "first", createdAt: 1 }))).toBe(true);
      expect(await store.createNotification(notification({ id, title: "second", createdAt: 2 }))).toBe(false);
      expect((await store.listNotifications(org.id, 10)).filter((n) => n.id === id).map((n) => n.title)).toEqual(["first"]);
    });

    test("read marks are per reader: by id or all at once, within the organization only", async () => {
      const ids = [newId("ntf"), newId("ntf"), newId("ntf")];
      for (const [i, id] of ids.entries()) await store.createNotification(notification({ id, title: `b${i}`, createdAt: i }));
      const [admin, member] = [`user:${user.id}`, `sa:${sa.id}`];
      expect(await store.markNotificationsRead("org_other", member, [ids[0]!], 5)).toBe(0);
      expect(await store.markNotificationsRead(org.id, member, [ids[0]!, "ntf_missing"], 5)).toBe(1);
      // A mark already there keeps its time and is not counted again.
      expect(await store.markNotificationsRead(org.id, member, [ids[0]!], 6)).toBe(0);
      expect(await store.markNotificationsRead(org.id, member, null, 7)).toBe(2);
      expect(await store.markNotificationsRead(org.id, member, null, 8)).toBe(0);
      const forMember = await store.listNotificationsFor(org.id, member, { limit: 10, unreadOnly: false });
      expect(forMember.map((n) => [n.title, n.readAt])).toEqual([
        ["b2", 7],
        ["b1", 7],
        ["b0", 5],
      ]);
      expect(await store.listNotificationsFor(org.id, member, { limit: 10, unreadOnly: true })).toEqual([]);
      // The admin's are untouched by the member's marks, and theirs leave the member's as they were.
      const forAdmin = await store.listNotificationsFor(org.id, admin, { limit: 2, unreadOnly: true });
      expect(forAdmin.map((n) => [n.title, n.readAt, n.body])).toEqual([
        ["b2", null, {}],
        ["b1", null, {}],
      ]);
      expect(await store.markNotificationsRead(org.id, admin, [ids[1]!], 9)).toBe(1);
      expect((await store.listNotificationsFor(org.id, admin, { limit: 10, unreadOnly: true })).map((n) => n.title)).toEqual(["b2", "b0"]);
      expect((await store.listNotificationsFor(org.id, member, { limit: 10, unreadOnly: false })).map((n) => n.readAt)).toEqual([7, 7, 5]);
      expect(await store.markNotificationsRead(org.id, admin, [], 10)).toBe(0);
    });

    test("notifications past their retention go with their read marks and webhook deliveries", async () => {
      const [old, kept] = [notification({ title: "old", createdAt: 100 }), notification({ title: "kept", createdAt: 200 })];
      for (const n of [old, kept]) {
        await store.createNotification(n);
        const delivery = { orgId: org.id, notificationId: n.id, attempt: 1, status: 204, error: null, createdAt: n.createdAt + 1 };
        await store.recordWebhookDelivery({ id: newId("whd"), ...delivery });
      }
      const reader = `user:${user.id}`;
      expect(await store.markNotificationsRead(org.id, reader, null, 300)).toBe(2);
      expect(await store.pruneNotifications(150)).toBe(1);
      expect((await store.listNotificationsFor(org.id, reader, { limit: 10, unreadOnly: false })).map((n) => [n.title, n.readAt])).toEqual([
        ["kept", 300],
      ]);
      expect((await store.listWebhookDeliveries(org.id, 10)).map((d) => d.notificationId)).toEqual([kept.id]);
      // A notification made again with the pruned id would start unread: its mark went with it.
      await store.createNotification(old);
      expect((await store.listNotificationsFor(org.id, reader, { limit: 10, unreadOnly: true })).map((n) => n.title)).toEqual(["old"]);
      expect(await store.pruneNotifications(150)).toBe(1);
      expect(await store.pruneNotifications(150)).toBe(0);
    });

    test("notifications of the kinds kept stay past the cutoff from their 'since', with their read marks and deliveries", async () => {
      const kept = notification({ title: "this month's threshold", createdAt: 120 });
      const older = notification({ title: "an older threshold", createdAt: 80 });
      const other = notification({ title: "a rate-limit state", createdAt: 120 });
      for (const [n, kind] of [
        [kept, "budget.threshold"],
        [older, "budget.threshold"],
        [other, "rate_limit.status"],
      ] as const) {
        await store.createNotification({ ...n, kind });
        await store.recordWebhookDelivery({
          id: newId("whd"),
          orgId: org.id,
          notificationId: n.id,
          attempt: 1,
          status: 204,
          error: null,
          createdAt: n.createdAt + 1,
        });
      }
      const reader = `user:${user.id}`;
      expect(await store.markNotificationsRead(org.id, reader, null, 130)).toBe(3);
      expect(await store.pruneNotifications(150, { kinds: ["budget.threshold", "other.kind"], since: 100 })).toBe(2);
      expect((await store.listNotificationsFor(org.id, reader, { limit: 10, unreadOnly: false })).map((n) => [n.title, n.readAt])).toEqual([
        ["this month's threshold", 130],
      ]);
      expect((await store.listWebhookDeliveries(org.id, 10)).map((d) => d.notificationId)).toEqual([kept.id]);
      // Without the kinds, the cutoff alone decides.
      expect(await store.pruneNotifications(150)).toBe(1);
      expect(await store.listWebhookDeliveries(org.id, 10)).toEqual([]);
    });

    test("usage summed by dimensions in the database", async () => {
      const day = Date.UTC(2026, 0, 10);
      const at = (h: number) => day + h * 3_600_000;
      await store.writeFlush({
        id: crypto.randomUUID(),
        events: [
          usage({ createdAt: at(1), provider: "openai", model: "gpt-4o", costMicros: 100, cacheReadTokens: 4 }),
          usage({ createdAt: at(5), provider: "openai", model: "gpt-4o-mini", costMicros: 50, status: 500 }),
          usage({ createdAt: at(25), provider: "anthropic", model: "claude", costMicros: 7, cacheReadTokens: 2, cacheWriteTokens: 8 }),
        ],
        keyTouches: [],
      });
      const byDayProvider = await store.sumUsage(org.id, day, day + 2 * 86_400_000, { by: ["day", "provider"], provider: null });
      expect(
        byDayProvider.map((r) => [r.hour, r.provider, r.requests, r.errors, r.costMicros, r.cacheReadTokens, r.cacheWriteTokens]).sort(),
      ).toEqual([
        [day, "openai", 2, 1, 150, 4, 0],
        [day + 86_400_000, "anthropic", 1, 0, 7, 2, 8],
      ]);
      expect(
        (await store.sumUsage(org.id, day, day + 2 * 86_400_000, { by: ["model"], provider: "openai" }))
          .map((r) => [r.model, r.costMicros])
          .sort(),
      ).toEqual([
        ["gpt-4o", 100],
        ["gpt-4o-mini", 50],
      ]);
      expect(await store.sumUsage(org.id, day, day + 2 * 86_400_000, { by: [], provider: null })).toMatchObject([
        { requests: 3, costMicros: 157, provider: "", keyId: "", cacheReadTokens: 6, cacheWriteTokens: 8 },
      ]);
      expect(await store.sumUsage(org.id, 0, 1, { by: [], provider: null })).toEqual([]);
      await store.writeFlush({
        id: crypto.randomUUID(),
        events: [usage({ createdAt: at(2), provider: "openai", model: "gpt-4o", costMicros: 1000, applicationId: "billing" })],
        keyTouches: [],
      });
      const byApp = await store.sumUsage(org.id, day, day + 2 * 86_400_000, { by: ["application"], provider: null });
      expect(byApp.map((r) => [r.applicationId, r.requests, r.costMicros]).sort()).toEqual([
        ["", 3, 157],
        ["billing", 1, 1000],
      ]);
      expect(await store.sumUsage(org.id, day, day + 86_400_000, { by: ["model"], provider: null, application: "billing" })).toMatchObject([
        { model: "gpt-4o", costMicros: 1000 },
      ]);
      await expect(
        store.sumUsage(org.id, day, day + 86_400_000, { by: ["key"], provider: null, application: "billing" }),
      ).rejects.toThrow();
      // Whole days and partial ones (daily and hourly roll-ups) agree.
      expect(
        (await store.sumUsage(org.id, day + 1, day + 2 * 86_400_000, { by: ["provider"], provider: null }))
          .map((r) => [r.provider, r.costMicros, r.cacheReadTokens, r.cacheWriteTokens])
          .sort(),
      ).toEqual([
        ["anthropic", 7, 2, 8],
        ["openai", 1150, 4, 0],
      ]);
      expect((await store.sumUsage(org.id, day, day + 86_400_000, { by: ["key"], provider: null })).map((r) => r.costMicros)).toEqual([
        1150,
      ]);
    });

    test("usage summed with `top` answers only the most costly groups, from the daily and the hourly roll-up", async () => {
      const day = Date.UTC(2026, 0, 12);
      // Models are named by callers: twelve here, costs 10 to 120, two calls of the dearest.
      const events = Array.from({ length: 12 }, (_, i) =>
        usage({ createdAt: day + i * 60_000, model: `m-${i}`, costMicros: (i + 1) * 10 }),
      );
      events.push(usage({ createdAt: day + 3_600_000, model: "m-11", costMicros: 5 }));
      await store.writeFlush({ id: crypto.randomUUID(), events, keyTouches: [] });
      for (const to of [day + 86_400_000, day + 86_400_000 - 1]) {
        const top = await store.sumUsage(org.id, day, to, { by: ["model"], provider: null, top: 3 });
        expect(top.map((r) => [r.model, r.requests, r.costMicros])).toEqual([
          ["m-11", 2, 125],
          ["m-10", 1, 110],
          ["m-9", 1, 100],
        ]);
      }
      expect(await store.sumUsage(org.id, day, day + 86_400_000, { by: ["model"], provider: null, top: 100 })).toHaveLength(12);
    });

    test("webhook secret and delivery results", async () => {
      expect(await store.getWebhookSecret(org.id)).toBeNull();
      await store.setWebhookSecret(org.id, "sealed-1", 1);
      await store.setWebhookSecret(org.id, "sealed-2", 2);
      expect(await store.getWebhookSecret(org.id)).toBe("sealed-2");
      await store.recordWebhookDelivery({
        id: newId("whd"),
        orgId: org.id,
        notificationId: "ntf_1",
        attempt: 1,
        status: 500,
        error: "HTTP 500",
        createdAt: 10,
      });
      await store.recordWebhookDelivery({
        id: newId("whd"),
        orgId: org.id,
        notificationId: "ntf_1",
        attempt: 2,
        status: 200,
        error: null,
        createdAt: 11,
      });
      const list = await store.listWebhookDeliveries(org.id, 10);
      expect(list.map((d) => [d.attempt, d.status, d.error])).toEqual([
        [2, 200, null],
        [1, 500, "HTTP 500"],
      ]);
    });

    test("webhook deliveries of given notifications: theirs only, oldest first, within the organization", async () => {
      const at = (notificationId: string, attempt: number, createdAt: number) =>
        store.recordWebhookDelivery({ id: newId("whd"), orgId: org.id, notificationId, attempt, status: 204, error: null, createdAt });
      await at("ntf_a", 2, 21);
      await at("ntf_a", 1, 20);
      await at("ntf_b", 1, 30);
      await at("ntf_c", 1, 40);
      const list = await store.listWebhookDeliveriesOf(org.id, ["ntf_a", "ntf_c"]);
      expect(list.map((d) => [d.notificationId, d.attempt])).toEqual([
        ["ntf_a", 1],
        ["ntf_a", 2],
        ["ntf_c", 1],
      ]);
      expect(await store.listWebhookDeliveriesOf("org_other", ["ntf_a"])).toEqual([]);
      expect(await store.listWebhookDeliveriesOf(org.id, [])).toEqual([]);
    });

    const etlDoc = (over: Partial<EtlDocument> = {}): EtlDocument => ({
      id: newId("doc"),
      orgId: org.id,
      createdAt: 1,
      originalTokens: 100,
      optimizedTokens: 60,
      costSavingsMicros: 40,
      transformations: ["normalization"],
      ...over,
    });

    test("ETL documents: newest first; each adds to its organization's running totals and transformation counts", async () => {
      expect(await store.getEtlTotals(org.id)).toEqual({
        documents: 0,
        originalTokens: 0,
        optimizedTokens: 0,
        costSavingsMicros: 0,
        transformations: {},
      });
      await store.recordEtlDocument(etlDoc({ createdAt: 1, transformations: ["normalization", "deduplication"] }));
      await store.recordEtlDocument(etlDoc({ createdAt: 2, originalTokens: 50, optimizedTokens: 50, costSavingsMicros: 0 }));
      // A name listed twice counts twice, as a count over the documents' lists would; none at all counts nothing.
      await store.recordEtlDocument(
        etlDoc({ createdAt: 2, originalTokens: 7, optimizedTokens: 5, transformations: ["chunking", "chunking"] }),
      );
      await store.recordEtlDocument(
        etlDoc({ createdAt: 3, originalTokens: 1, optimizedTokens: 1, costSavingsMicros: 0, transformations: [] }),
      );
      await store.recordEtlDocument(etlDoc({ orgId: "org_other", originalTokens: 9_000_000_000, transformations: [] }));
      const list = await store.listEtlDocuments(org.id, 2);
      expect(list).toMatchObject([{ createdAt: 3, transformations: [] }, { createdAt: 2 }]);
      expect(await store.getEtlTotals(org.id)).toEqual({
        documents: 4,
        originalTokens: 158,
        optimizedTokens: 116,
        costSavingsMicros: 80,
        transformations: { normalization: 2, deduplication: 1, chunking: 2 },
      });
      expect(await store.getEtlTotals("org_other")).toEqual({
        documents: 1,
        originalTokens: 9_000_000_000,
        optimizedTokens: 60,
        costSavingsMicros: 40,
        transformations: {},
      });
    });

    test("an ETL document that cannot be written adds nothing to the totals", async () => {
      const doc = etlDoc();
      await store.recordEtlDocument(doc);
      await expect(store.recordEtlDocument({ ...doc, originalTokens: 5 })).rejects.toThrow();
      expect(await store.getEtlTotals(org.id)).toMatchObject({ documents: 1, originalTokens: 100, transformations: { normalization: 1 } });
    });

    test("pruning ETL documents keeps each organization's newest and every total as it was", async () => {
      const other = { id: newId("org"), name: "Other", tier: "enterprise" as const, createdAt: 1 };
      await store.createOrganization(other);
      // 14 old documents (the two newest of them made at the same time), 2 recent ones; 3 old of another organization.
      for (let t = 1; t <= 13; t++) await store.recordEtlDocument(etlDoc({ createdAt: t * 10 }));
      await store.recordEtlDocument(etlDoc({ createdAt: 130, transformations: ["chunking"] }));
      for (const t of [1000, 1001]) await store.recordEtlDocument(etlDoc({ createdAt: t }));
      for (const t of [1, 2, 3]) await store.recordEtlDocument(etlDoc({ orgId: other.id, createdAt: t }));
      const totals = await store.getEtlTotals(org.id);
      const newest = await store.listEtlDocuments(org.id, 3);
      expect(totals).toMatchObject({ documents: 16, transformations: { normalization: 15, chunking: 1 } });

      // The 3 newest are 1001, 1000 and one of the two at 130: both stay, never one of a tie.
      expect(await store.pruneEtlDocuments(500, 3)).toBe(12);
      expect((await store.listEtlDocuments(org.id, 100)).map((d) => d.createdAt)).toEqual([1001, 1000, 130, 130]);
      expect(await store.listEtlDocuments(org.id, 3)).toEqual(newest);
      expect(await store.getEtlTotals(org.id)).toEqual(totals);
      // No more than `keepNewest` rows: all stay, however old.
      expect((await store.listEtlDocuments(other.id, 100)).map((d) => d.createdAt)).toEqual([3, 2, 1]);
      expect(await store.pruneEtlDocuments(500, 3)).toBe(0);
      expect(await store.pruneEtlDocuments(5_000, 1)).toBe(3 + 2);
      expect(await store.listEtlDocuments(org.id, 100)).toMatchObject([{ createdAt: 1001 }]);
      expect(await store.getEtlTotals(org.id)).toEqual(totals);
      expect(await store.getEtlTotals(other.id)).toMatchObject({ documents: 3 });
    });
  });
}
