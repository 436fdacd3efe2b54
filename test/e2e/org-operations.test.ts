/** The organization operations over HTTP: keys, service accounts, members, audit, preferences, roles. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOperationRegistry } from "../../src/ops/index.ts";
import { type InitResult, type RunningGateway, startGatewayWithOrg, stopAndRemove } from "../support/gateway-process.ts";

let gw: RunningGateway;
let org: InitResult;
let memberKey: string;

beforeAll(async () => {
  ({ org, gw } = await startGatewayWithOrg());
  const created = await gw.op(org.apiKey, "org.service-account.create", {
    serviceAccountName: "ci-bot",
    name: "ci",
    description: "CI pipeline",
    keyType: "live",
    proxyMode: "security_enhanced",
  });
  memberKey = created.body.data.apiKey.key;
});

afterAll(() => stopAndRemove(gw));

describe("service accounts and keys", () => {
  test("create returns the account and the key value once", async () => {
    const r = await gw.op(org.apiKey, "org.service-account.create", {
      serviceAccountName: "sandbox",
      name: "dev",
      keyType: "test",
      spendCapCents: 500,
    });
    expect(r.status).toBe(200);
    const { serviceAccount, apiKey } = r.body.data;
    expect(serviceAccount).toMatchObject({ name: "sandbox", role: "member", createdBy: org.userId });
    expect(Date.parse(serviceAccount.createdAt)).toBeGreaterThan(0);
    expect(apiKey).toMatchObject({ name: "dev", keyType: "test", proxyMode: "security_enhanced" });
    expect(apiKey.key).toMatch(/^gw_test_[0-9A-Za-z]{40}$/);
    // Listing never shows the value again.
    const listed = await gw.op(org.apiKey, "org.service-accounts.list");
    expect(JSON.stringify(listed.body)).not.toContain(apiKey.key);
    const sa = listed.body.data.serviceAccounts.find((s: any) => s.id === serviceAccount.id);
    expect(sa).toMatchObject({ name: "sandbox", createdBy: org.userId, apiKeys: [{ id: apiKey.id, keyType: "test", spendCapCents: 500 }] });
  });

  test("api-keys.list shows active keys with the owner's e-mail, type, mode and usage", async () => {
    await gw.op(memberKey, "user.me");
    await Bun.sleep(400); // one write-behind interval
    const r = await gw.op(org.apiKey, "org.api-keys.list");
    expect(r.status).toBe(200);
    const keys = r.body.data.apiKeys;
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const k of keys) {
      expect(k).toHaveProperty("ownerEmail", "admin@example.com");
      expect(k).toHaveProperty("keyType");
      expect(k).toHaveProperty("proxyMode", "security_enhanced");
      expect(k).toHaveProperty("lastUsed");
      expect(typeof k.requestCount).toBe("number");
      expect(k).not.toHaveProperty("keyHash");
    }
    const ci = keys.find((k: any) => k.name === "ci");
    expect(ci.requestCount).toBeGreaterThanOrEqual(1);
    expect(Date.parse(ci.lastUsed)).toBeGreaterThan(Date.now() - 60_000);
  });

  test("revocation takes effect on the very next request and is audited", async () => {
    const created = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: "short-lived", name: "tmp" });
    const { key, id } = created.body.data.apiKey;
    expect((await gw.op(key, "user.me")).status).toBe(200); // now cached in memory
    const revoked = await gw.op(org.apiKey, "org.api-key.revoke", { keyId: id, reason: "rotated" });
    expect(revoked.status).toBe(200);
    const { auditEntryId } = revoked.body.data;
    expect(revoked.body.data.keyId).toBe(id);
    expect(auditEntryId).toMatch(/^aud_/);
    expect(Date.parse(revoked.body.data.revokedAt)).toBeGreaterThan(0);
    const after = await gw.op(key, "user.me");
    expect(after.status).toBe(401);
    expect(after.body.error).toContain("revoked");
    // Revoked keys leave the active list; revoking twice is a conflict.
    const listed = await gw.op(org.apiKey, "org.api-keys.list");
    expect(listed.body.data.apiKeys.map((k: any) => k.id)).not.toContain(id);
    expect((await gw.op(org.apiKey, "org.api-key.revoke", { keyId: id })).status).toBe(409);
    const audit = await gw.op(org.apiKey, "org.audit-log.list", { limit: 5 });
    const entry = audit.body.data.entries.find((e: any) => e.id === auditEntryId);
    expect(entry).toMatchObject({
      action: "api_key.revoke",
      target: id,
      actor: `sa:${org.serviceAccountId}`,
      ip: "127.0.0.1",
      details: { reason: "rotated" },
    });
    expect(entry.userAgent).toBeTruthy();
  });

  test("unknown key ids are 404", async () => {
    expect((await gw.op(org.apiKey, "org.api-key.revoke", { keyId: "key_nope" })).status).toBe(404);
    expect((await gw.op(org.apiKey, "org.api-key.update", { keyId: "key_nope", name: "x" })).status).toBe(404);
  });

  test("update changes name and caps", async () => {
    const created = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: "capped", name: "before" });
    const id = created.body.data.apiKey.id;
    const r = await gw.op(org.apiKey, "org.api-key.update", { keyId: id, name: "after", spendCapCents: 1000, monthlyCapCents: 200 });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, name: "after", spendCapCents: 1000, monthlyCapCents: 200 });
    expect((await gw.op(org.apiKey, "org.api-key.update", { keyId: id })).status).toBe(400);
    expect((await gw.op(org.apiKey, "org.api-key.update", { keyId: id, spendCapCents: -1 })).status).toBe(400);
  });
});

describe("roles", () => {
  test("a member's key gets 403 on every org.* operation, each refusal audited, nothing changed", async () => {
    // Valid params for each, so the refusal is the role's and not the input's.
    const params: Record<string, object> = {
      "org.service-accounts.list": {},
      "org.api-keys.list": {},
      "org.members.list": {},
      "org.audit-log.list": { limit: 5 },
      "org.service-account.create": { serviceAccountName: "sneaky" },
      "org.api-key.revoke": { keyId: org.keyId },
      "org.api-key.update": { keyId: org.keyId, name: "hijacked", spendCapCents: 0 },
      "org.members.invite": { email: "intruder@example.com", role: "admin" },
      "org.invitation.cancel": { email: "intruder@example.com" },
      "org.member.remove": { userId: org.userId },
      "org.member.update-role": { userId: org.userId, role: "member" },
      "org.service-account.delete": { serviceAccountId: "sa_does_not_matter" },
      "org.api-key.rotate": { keyId: org.keyId },
      "org.webhook-secret.rotate": {},
    };
    // Every org.* operation the gateway has: one added later without a role check fails here.
    const orgOps = createOperationRegistry()
      .ids()
      .filter((id) => id.startsWith("org."));
    expect(orgOps.sort()).toEqual(Object.keys(params).sort());
    const memberSa = (await gw.op(memberKey, "user.me")).body.data.serviceAccount.id;
    for (const op of orgOps) {
      const r = await gw.op(memberKey, op, params[op]);
      expect([op, r.status]).toEqual([op, 403]);
      expect(r.body).toMatchObject({ success: false, data: null, code: "forbidden" });
      expect(r.body.error).toContain(op);
    }
    const audit = (await gw.op(org.apiKey, "org.audit-log.list", { limit: 100 })).body.data.entries as any[];
    for (const op of orgOps) {
      const denied = audit.find((e) => e.action === "access.denied" && e.target === op);
      expect([op, denied]).toEqual([
        op,
        expect.objectContaining({ actor: `sa:${memberSa}`, ip: "127.0.0.1", details: expect.objectContaining({ requiredRole: "admin" }) }),
      ]);
    }
    expect(audit.some((e) => e.action !== "access.denied" && e.actor === `sa:${memberSa}`)).toBe(false);
    // Nothing was done: the admin key works, unrenamed and uncapped; nobody was invited; no account was created.
    expect((await gw.op(org.apiKey, "user.me")).status).toBe(200);
    const adminKey = (await gw.op(org.apiKey, "org.api-keys.list")).body.data.apiKeys.find((k: any) => k.id === org.keyId);
    expect(adminKey.name).not.toBe("hijacked");
    const members = (await gw.op(org.apiKey, "org.members.list")).body.data.members.map((m: any) => m.email);
    expect(members).not.toContain("intruder@example.com");
    const accounts = (await gw.op(org.apiKey, "org.service-accounts.list")).body.data.serviceAccounts.map((a: any) => a.name);
    expect(accounts).not.toContain("sneaky");
    const listed = (await gw.op(org.apiKey, "org.service-accounts.list")).body.data.serviceAccounts.flatMap((a: any) => a.apiKeys);
    expect(listed.find((k: any) => k.id === org.keyId)?.spendCapCents ?? null).toBeNull();
  });

  test("an admin can create an admin service account", async () => {
    const r = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: "ops", role: "admin" });
    expect((await gw.op(r.body.data.apiKey.key, "org.members.list")).status).toBe(200);
  });
});

describe("members and audit log", () => {
  test("invite and list members; duplicates are refused", async () => {
    const r = await gw.op(org.apiKey, "org.members.invite", { email: "Dev@Example.com", role: "member" });
    expect(r.status).toBe(200);
    expect(r.body.data.invitation).toEqual({ email: "dev@example.com", role: "member" });
    expect((await gw.op(org.apiKey, "org.members.invite", { email: "dev@example.com" })).status).toBe(409);
    expect((await gw.op(org.apiKey, "org.members.invite", { email: "not-an-email" })).status).toBe(400);
    const list = await gw.op(org.apiKey, "org.members.list");
    expect(list.body.data.members.map((m: any) => m.email).sort()).toEqual(["admin@example.com"]);
    expect(list.body.data.invitations.map((i: any) => [i.email, i.status])).toEqual([["dev@example.com", "pending"]]);
  });

  test("audit entries page newest first", async () => {
    const first = await gw.op(org.apiKey, "org.audit-log.list", { limit: 3 });
    expect(first.body.data.entries).toHaveLength(3);
    const ids = first.body.data.entries.map((e: any) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const next = await gw.op(org.apiKey, "org.audit-log.list", { limit: 3, before: first.body.data.nextBefore });
    expect(next.body.data.entries[0].id < ids[2]).toBe(true);
    for (const e of [...first.body.data.entries, ...next.body.data.entries]) {
      expect(e).toHaveProperty("actor");
      expect(e).toHaveProperty("ip");
      expect(e).toHaveProperty("userAgent");
      expect(e.id).toMatch(/^aud_/);
    }
  });
});

describe("preferences", () => {
  test("read defaults, then update organization and personal keys", async () => {
    const read = await gw.op(org.apiKey, "user.preferences");
    expect(read.body.data).toEqual({
      monthlyBudgetCents: null,
      piiAction: "redact",
      security: { injection: "block", secrets: "block", pii: "redact" },
      alertWebhookUrl: null,
      defaultRouteStrategy: "balanced",
      fallbackModels: {},
      signInEmailDomains: [],
      contextOptimizer: false,
      alertCheckIntervalS: null,
      phoneRegion: "US",
      timezone: "UTC",
      emailNotifications: true,
    });
    const set = await gw.op(org.apiKey, "user.preferences", {
      set: { monthlyBudgetCents: 50_000, piiAction: "block", timezone: "Europe/Berlin" },
    });
    expect(set.body.data).toMatchObject({
      monthlyBudgetCents: 50_000,
      piiAction: "block",
      security: { pii: "block" },
      timezone: "Europe/Berlin",
    });
  });

  test("members may change their own settings but not the organization's", async () => {
    expect((await gw.op(memberKey, "user.preferences", { set: { timezone: "America/New_York" } })).status).toBe(200);
    expect((await gw.op(memberKey, "user.preferences", { set: { piiAction: "redact" } })).status).toBe(403);
    expect((await gw.op(org.apiKey, "user.preferences")).body.data.piiAction).toBe("block");
  });

  test("unknown keys and bad values are 400 and change nothing", async () => {
    expect((await gw.op(org.apiKey, "user.preferences", { set: { colour: "red" } })).status).toBe(400);
    expect((await gw.op(org.apiKey, "user.preferences", { set: { piiAction: "ignore" } })).status).toBe(400);
    expect((await gw.op(org.apiKey, "user.preferences", { set: { timezone: "Mars/Olympus" } })).status).toBe(400);
    expect((await gw.op(org.apiKey, "user.preferences", { set: { alertWebhookUrl: "ftp://x" } })).status).toBe(400);
    expect((await gw.op(org.apiKey, "user.preferences")).body.data).toMatchObject({ piiAction: "block", timezone: "Europe/Berlin" });
  });
});
