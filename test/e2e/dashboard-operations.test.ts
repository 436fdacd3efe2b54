/**
 * The operations behind the dashboard's admin pages, for each kind of caller: admin key,
 * member key, admin session, member session. Refusals change nothing; every change is audited.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import type { User } from "../../src/domain/types.ts";
import { addMember } from "../../src/services/organizations.ts";
import { createServiceAccountWithKey } from "../../src/services/service-accounts.ts";
import { SESSION_COOKIE, startSession } from "../../src/services/sessions.ts";
import { startMockProvider } from "../support/gateway-process.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;
let adminKey: string;
let memberKey: string;
let adminCookie: string;
let memberCookie: string;
let member: User;

beforeAll(async () => {
  gw = await startInProcessGateway();
  adminKey = gw.init.keyValue;
  const s = gw.rt.services;
  memberKey = (
    await createServiceAccountWithKey(s, CLI_ACTOR, gw.init.organization, gw.init.user.id, {
      serviceAccountName: "member-bot",
      name: "default",
      keyType: "live",
      role: "member",
    })
  ).keyValue;
  member = await addMember(s, CLI_ACTOR, gw.init.organization.id, { email: "member@acme.test", role: "member" });
  adminCookie = `${SESSION_COOKIE}=${await startSession(s.store, gw.init.user, s.now())}`;
  memberCookie = `${SESSION_COOKIE}=${await startSession(s.store, member, s.now())}`;
});

afterAll(() => gw.stop());

const lastAudit = async () => (await gw.rt.store.listAudit(gw.init.organization.id, { limit: 1, before: null })).entries[0]!;

async function newMember(email: string, role: "admin" | "member" = "member") {
  return addMember(gw.rt.services, CLI_ACTOR, gw.init.organization.id, { email, role });
}

async function newAccount(name: string) {
  return createServiceAccountWithKey(gw.rt.services, CLI_ACTOR, gw.init.organization, gw.init.user.id, {
    serviceAccountName: name,
    name: "default",
    keyType: "live",
  });
}

const chat = (key: string) => gw.handle(new Request(`${gw.origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } }));

describe("org.member.update-role and org.member.remove", () => {
  test("members (key or session) are refused, and the refusal is audited", async () => {
    const target = await newMember("target1@acme.test");
    for (const as of [{ key: memberKey }, { cookie: memberCookie }]) {
      const r = await gw.op(as, "org.member.update-role", { userId: target.id, role: "admin" });
      expect(r.status).toBe(403);
      expect((await lastAudit()).action).toBe("access.denied");
      expect((await gw.op(as, "org.member.remove", { userId: target.id })).status).toBe(403);
    }
    expect((await gw.rt.store.getUser(target.id))?.role).toBe("member");
  });

  test("an admin (key or session) changes a role and removes a member, whose session ends", async () => {
    const target = await newMember("target2@acme.test");
    const cookie = `${SESSION_COOKIE}=${await startSession(gw.rt.store, target, gw.clock.now)}`;
    const promoted = await gw.op({ cookie: adminCookie }, "org.member.update-role", { userId: target.id, role: "admin" });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.user).toMatchObject({ id: target.id, role: "admin" });
    expect(await lastAudit()).toMatchObject({ action: "member.role-change", target: target.id, details: { from: "member", to: "admin" } });
    expect((await gw.op({ cookie }, "user.me")).body.data.user.role).toBe("admin");
    const removed = await gw.op({ key: adminKey }, "org.member.remove", { userId: target.id });
    expect(removed.body.data).toMatchObject({ userId: target.id, removed: true, providersDisabled: [] });
    expect((await lastAudit()).action).toBe("member.remove");
    expect((await gw.op({ cookie }, "user.me")).status).toBe(401);
    expect((await gw.op({ key: adminKey }, "org.member.remove", { userId: target.id })).status).toBe(404);
  });

  test("the last admin can be neither demoted nor removed", async () => {
    const id = gw.init.user.id;
    const others = (await gw.rt.store.listUsers(gw.init.organization.id)).filter((u) => u.role === "admin" && u.id !== id);
    expect(others).toHaveLength(0);
    const demote = await gw.op({ key: adminKey }, "org.member.update-role", { userId: id, role: "member" });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toContain("only admin");
    expect((await gw.op({ key: adminKey }, "org.member.remove", { userId: id })).status).toBe(409);
    expect((await gw.rt.store.getUser(id))?.role).toBe("admin");
  });

  test("bad input and unknown members get clear errors", async () => {
    expect((await gw.op({ key: adminKey }, "org.member.update-role", { userId: member.id, role: "owner" })).status).toBe(400);
    expect((await gw.op({ key: adminKey }, "org.member.remove", {})).status).toBe(400);
    expect((await gw.op({ key: adminKey }, "org.member.remove", { userId: "usr_nope" })).status).toBe(404);
  });
});

describe("org.service-account.delete", () => {
  test("a member is refused; an admin deletes it and its keys stop at once", async () => {
    const created = await newAccount("doomed");
    expect((await chat(created.keyValue)).status).toBe(200);
    expect((await gw.op({ key: memberKey }, "org.service-account.delete", { serviceAccountId: created.serviceAccount.id })).status).toBe(
      403,
    );
    expect(
      (await gw.op({ cookie: memberCookie }, "org.service-account.delete", { serviceAccountId: created.serviceAccount.id })).status,
    ).toBe(403);
    const r = await gw.op({ cookie: adminCookie }, "org.service-account.delete", { serviceAccountId: created.serviceAccount.id });
    expect(r.body.data).toEqual({ serviceAccountId: created.serviceAccount.id, deleted: true, keysDeleted: 1 });
    expect(await lastAudit()).toMatchObject({ action: "service_account.delete", target: created.serviceAccount.id });
    expect((await chat(created.keyValue)).status).toBe(401);
    expect((await gw.op({ key: adminKey }, "org.service-account.delete", { serviceAccountId: created.serviceAccount.id })).status).toBe(
      404,
    );
  });
});

describe("org.api-key.rotate", () => {
  test("a member is refused", async () => {
    const created = await newAccount("rot-refused");
    expect((await gw.op({ key: memberKey }, "org.api-key.rotate", { keyId: created.apiKey.id })).status).toBe(403);
    expect((await gw.op({ cookie: memberCookie }, "org.api-key.rotate", { keyId: created.apiKey.id })).status).toBe(403);
    expect((await chat(created.keyValue)).status).toBe(200);
  });

  test("without a grace period the old key stops at once and the new one works", async () => {
    const created = await newAccount("rot-now");
    const r = await gw.op({ key: adminKey }, "org.api-key.rotate", { keyId: created.apiKey.id });
    expect(r.status).toBe(200);
    expect(r.body.data.apiKey.key).toMatch(/^gw_live_[A-Za-z0-9]{40}$/);
    expect(r.body.data.apiKey.serviceAccountId).toBe(created.serviceAccount.id);
    expect((await chat(created.keyValue)).status).toBe(401);
    expect((await chat(r.body.data.apiKey.key)).status).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: "api_key.rotate", target: created.apiKey.id });
    expect((await gw.op({ key: adminKey }, "org.api-key.rotate", { keyId: created.apiKey.id })).status).toBe(409);
  });

  test("with a grace period the old key works until it ends, and can still be revoked sooner", async () => {
    const created = await newAccount("rot-grace");
    const r = await gw.op({ cookie: adminCookie }, "org.api-key.rotate", { keyId: created.apiKey.id, gracePeriodSeconds: 3600 });
    expect(r.body.data.previous.revokedAt).toBe(new Date(gw.clock.now + 3600_000).toISOString());
    expect((await chat(created.keyValue)).status).toBe(200);
    gw.clock.now += 3600_000;
    expect((await chat(created.keyValue)).status).toBe(401);
    expect((await chat(r.body.data.apiKey.key)).status).toBe(200);

    const second = await newAccount("rot-grace-2");
    await gw.op({ key: adminKey }, "org.api-key.rotate", { keyId: second.apiKey.id, gracePeriodSeconds: 3600 });
    expect((await gw.op({ key: adminKey }, "org.api-key.revoke", { keyId: second.apiKey.id, reason: "leaked" })).status).toBe(200);
    expect((await chat(second.keyValue)).status).toBe(401);
  });

  test("grace beyond seven days is refused", async () => {
    const created = await newAccount("rot-long");
    expect(
      (await gw.op({ key: adminKey }, "org.api-key.rotate", { keyId: created.apiKey.id, gracePeriodSeconds: 8 * 24 * 3600 })).status,
    ).toBe(400);
  });
});

describe("user.sessions.list and user.sessions.end-all", () => {
  test("a user sees their own sessions, marked current, with no id in them", async () => {
    const other = `${SESSION_COOKIE}=${await startSession(gw.rt.store, member, gw.clock.now)}`;
    const r = await gw.op({ cookie: other }, "user.sessions.list");
    expect(r.status).toBe(200);
    expect(r.body.data.sessions.length).toBeGreaterThanOrEqual(2);
    expect(r.body.data.sessions.filter((s: any) => s.current)).toHaveLength(1);
    expect(JSON.stringify(r.body)).not.toContain(other.split("=")[1]!);
  });

  test("service accounts have no sessions", async () => {
    expect((await gw.op({ key: adminKey }, "user.sessions.list")).status).toBe(400);
    expect((await gw.op({ key: memberKey }, "user.sessions.end-all")).status).toBe(400);
  });

  test("sign out everywhere ends all of the caller's sessions", async () => {
    const target = await newMember("traveller@acme.test");
    const a = `${SESSION_COOKIE}=${await startSession(gw.rt.store, target, gw.clock.now)}`;
    const b = `${SESSION_COOKIE}=${await startSession(gw.rt.store, target, gw.clock.now)}`;
    const r = await gw.op({ cookie: a }, "user.sessions.end-all");
    expect(r.body.data).toEqual({ userId: target.id, sessionsEnded: 2 });
    expect((await gw.op({ cookie: b }, "user.me")).status).toBe(401);
    expect((await lastAudit()).action).toBe("session.sign-out-everywhere");
  });

  test("only an admin may sign out another member", async () => {
    const target = await newMember("victim@acme.test");
    const c = `${SESSION_COOKIE}=${await startSession(gw.rt.store, target, gw.clock.now)}`;
    expect((await gw.op({ cookie: memberCookie }, "user.sessions.end-all", { userId: target.id })).status).toBe(403);
    expect((await gw.op({ key: memberKey }, "user.sessions.end-all", { userId: target.id })).status).toBe(403);
    expect((await gw.op({ cookie: c }, "user.me")).status).toBe(200);
    expect((await gw.op({ key: adminKey }, "user.sessions.end-all", { userId: target.id })).body.data.sessionsEnded).toBe(1);
    expect((await gw.op({ cookie: c }, "user.me")).status).toBe(401);
    expect((await gw.op({ key: adminKey }, "user.sessions.end-all", { userId: "usr_elsewhere" })).status).toBe(404);
  });
});

describe("provider.test", () => {
  test("answers whether the provider is reachable with its stored key, never the key", async () => {
    const mock = await startMockProvider();
    try {
      const up = await gw.op({ key: adminKey }, "provider.create", {
        provider: "openai",
        name: "mocked",
        apiKey: "sk-stored-secret-0001",
        baseUrl: `${mock.url}/v1`,
        scope: "organization",
      });
      const down = await gw.op({ key: adminKey }, "provider.create", {
        provider: "self-hosted",
        name: "down",
        apiKey: "k-stored-secret-0002",
        baseUrl: "http://127.0.0.1:9/v1",
        country: "US",
        models: ["m"],
        scope: "organization",
      });
      const ok = await gw.op({ cookie: memberCookie }, "provider.test", { id: up.body.data.provider.id });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ providerId: up.body.data.provider.id, refusedBecause: null, reachable: true, error: null });
      expect(ok.body.data.modelCount).toBeGreaterThan(0);
      const bad = await gw.op({ key: adminKey }, "provider.test", { id: down.body.data.provider.id });
      expect(bad.body.data).toMatchObject({ reachable: false, refusedBecause: null });
      expect(bad.body.data.error).toBeTruthy();
      expect(JSON.stringify([ok.body, bad.body])).not.toContain("stored-secret");
    } finally {
      await mock.stop();
    }
  }, 30_000);

  test("a provider the caller cannot see is reported as missing", async () => {
    const mine = await gw.op({ cookie: adminCookie }, "provider.create", {
      provider: "openai",
      name: "admins-own",
      apiKey: "sk-private-0003",
      scope: "user",
    });
    expect(mine.status).toBe(200);
    expect((await gw.op({ cookie: memberCookie }, "provider.test", { id: mine.body.data.provider.id })).status).toBe(404);
    expect((await gw.op({ key: memberKey }, "provider.test", { id: "prv_nope" })).status).toBe(404);
  });
});

describe("usage.daily", () => {
  test("days of zeros before any call; bad ranges are refused", async () => {
    const r = await gw.op({ cookie: memberCookie }, "usage.daily", { days: 7 });
    expect(r.status).toBe(200);
    expect(r.body.data.days).toHaveLength(7);
    expect(r.body.data.days.at(-1).date).toBe(new Date(gw.clock.now).toISOString().slice(0, 10));
    expect((await gw.op({ key: memberKey }, "usage.daily", { days: 0 })).status).toBe(400);
    expect((await gw.op({ key: memberKey }, "usage.daily", { days: 1000 })).status).toBe(400);
  });

  test("a call shows up on its day, per provider", async () => {
    const mock = await startMockProvider();
    try {
      await gw.op({ key: adminKey }, "provider.create", {
        provider: "openai",
        name: "usage-mock",
        apiKey: "sk-usage-0004",
        baseUrl: `${mock.url}/v1`,
        scope: "organization",
      });
      const res = await gw.handle(
        new Request(`${gw.origin}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "usage-mock/gpt-4o", messages: [{ role: "user", content: "hi" }] }),
        }),
      );
      expect(res.status).toBe(200);
      await res.text();
      await gw.rt.usage.flush();
      // The call was recorded at the wall clock's time; the key rotation's test moved the
      // services' clock an hour on, which after 23:00 UTC is tomorrow.
      gw.clock.now = Date.now();
      const today = (await gw.op({ key: adminKey }, "usage.daily", { days: 1 })).body.data.days[0];
      expect(today.requests).toBeGreaterThanOrEqual(1);
      expect(today.costMicros).toBeGreaterThan(0);
      expect(Object.keys(today.byProvider).length).toBeGreaterThanOrEqual(1);
      const filtered = (await gw.op({ key: adminKey }, "usage.daily", { days: 1, provider: "no-such-provider" })).body.data.days[0];
      expect(filtered.requests).toBe(0);
    } finally {
      await mock.stop();
    }
  }, 30_000);
});
