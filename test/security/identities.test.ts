/**
 * What each kind of caller may do outside provider ownership. The probes that found
 * the holes: a sandbox key's /v1/models and ai.models made the gateway fetch model
 * lists from real providers with the stored live keys; a sandbox admin key created a
 * live admin key and a provider; org.members.invite answered 409 with the address
 * when it existed in another organization, and once it answered alike,
 * org.members.list still told (the free address was listed as a member, the taken one
 * was not); /metrics was open to anyone who could reach the port; a read-only user.me
 * with a session cookie was refused without Origin; defaultRouteStrategy was accepted
 * and did nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startMockProvider } from "../../src/mock-provider/server.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { startSession } from "../../src/services/sessions.ts";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
let mock: ReturnType<typeof startMockProvider>;
let mockUrl: string;

const modelListFetches = async () =>
  ((await (await fetch(`${mockUrl}/_mock/requests`)).json()) as { path: string }[]).filter((r) => r.path === "/v1/models").length;

beforeAll(async () => {
  h = await startHarness({ GW_METRICS_TOKEN: "scrape-token-123" });
  mock = startMockProvider({ host: "127.0.0.1", port: 0, latencyMs: 0 });
  mockUrl = `http://127.0.0.1:${mock.port}`;
  expect(
    (await h.op(h.admin, "provider.create", { provider: "openai", apiKey: "sk-live-stored-key-0000", baseUrl: `${mockUrl}/v1` })).status,
  ).toBe(200);
});

afterAll(async () => {
  mock.stop(true);
  await h.close();
});

describe("a sandbox key", () => {
  test("never causes a provider call: /v1/models and ai.models list the catalog without fetching", async () => {
    const before = await modelListFetches();
    const res = await h.fetch("/v1/models", { headers: h.sandboxAdminKey.headers });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toContain("gpt-4o");
    expect((await h.op(h.sandboxAdminKey, "ai.models")).status).toBe(200);
    expect(await modelListFetches()).toBe(before);
    // A live key does fetch the provider's own list, so the probe above can see a fetch.
    await h.fetch("/v1/models", { headers: h.admin.headers });
    expect(await modelListFetches()).toBe(before + 1);
  });

  const administration: [string, object][] = [
    ["org.service-account.create", { serviceAccountName: "escalate", role: "admin", keyType: "live" }],
    ["org.api-key.revoke", { keyId: "key_x" }],
    ["org.api-key.update", { keyId: "key_x", name: "x" }],
    ["org.members.invite", { email: "new@example.com" }],
    ["provider.create", { provider: "openai", apiKey: "sk-sandbox-made-0000", scope: "organization" }],
    ["provider.update", { id: "prv_x", name: "x" }],
    ["provider.delete", { id: "prv_x" }],
    ["user.preferences", { set: { piiAction: "block" } }],
  ];
  for (const [operation, params] of administration) {
    test(`may not run ${operation}`, async () => {
      const r = await h.op(h.sandboxAdminKey, operation, params);
      expect(r.status).toBe(403);
      expect(r.body.error).toContain("sandbox");
    });
  }

  test("may read: user.me, the lists, its preferences, quotes", async () => {
    for (const operation of ["user.me", "provider.list", "org.api-keys.list", "org.members.list", "user.preferences"])
      expect((await h.op(h.sandboxAdminKey, operation)).status).toBe(200);
  });
});

describe("org.members.invite", () => {
  test("answers the same whether the address is held by another organization or free", async () => {
    await initializeOrganization(h.rt.services, { name: "Elsewhere", adminEmail: "taken@elsewhere.example", tier: "starter" });
    const taken = await h.op(h.admin, "org.members.invite", { email: "taken@elsewhere.example" });
    const free = await h.op(h.admin, "org.members.invite", { email: "free@elsewhere.example" });
    expect(taken.status).toBe(free.status);
    expect(taken.body.data.next).toBe(free.body.data.next);
    expect(taken.body.data.invitation).toEqual({ email: "taken@elsewhere.example", role: "member" });
    expect(free.body.data.invitation).toEqual({ email: "free@elsewhere.example", role: "member" });
    const audit = (await h.op(h.admin, "org.audit-log.list", { limit: 2 })).body.data.entries as { action: string; details: unknown }[];
    expect(audit.map((e) => e.action)).toEqual(["member.invite", "member.invite"]);
    // Listed alike: both pending invitations, neither a member, until the person signs in here.
    const listed = (await h.op(h.admin, "org.members.list")).body.data;
    const emails = listed.members.map((m: { email: string }) => m.email);
    expect(emails).not.toContain("free@elsewhere.example");
    expect(emails).not.toContain("taken@elsewhere.example");
    const invited = (email: string) => listed.invitations.find((i: { email: string }) => i.email === email);
    const { invitedAt: _a, expiresAt: _c, ...takenEntry } = invited("taken@elsewhere.example");
    const { invitedAt: _b, expiresAt: _d, ...freeEntry } = invited("free@elsewhere.example");
    expect(takenEntry).toEqual({ email: "taken@elsewhere.example", role: "member", status: "pending" });
    expect(freeEntry).toEqual({ email: "free@elsewhere.example", role: "member", status: "pending" });
    // Inviting again is refused alike while pending.
    const again = await Promise.all(
      ["taken@elsewhere.example", "free@elsewhere.example"].map((email) => h.op(h.admin, "org.members.invite", { email })),
    );
    expect(again.map((r) => [r.status, r.body.error.replace(/^\S+/, "<email>").replace(/until \S+;/, "until <time>;")])).toEqual([
      [409, "<email> is already invited to this organization, until <time>; withdraw it (org.invitation.cancel) to invite again sooner"],
      [409, "<email> is already invited to this organization, until <time>; withdraw it (org.invitation.cancel) to invite again sooner"],
    ]);
    // The free address's person signs in: only then is it a member (and no longer an invitation).
    const user = await h.rt.store.getUserByEmail("free@elsewhere.example");
    await startSession(h.rt.store, user!, Date.now());
    const after = (await h.op(h.admin, "org.members.list")).body.data;
    expect(after.members.map((m: { email: string }) => m.email)).toContain("free@elsewhere.example");
    expect(after.invitations.map((i: { email: string }) => i.email)).toEqual(["taken@elsewhere.example"]);
    expect((await h.op(h.admin, "org.members.invite", { email: "free@elsewhere.example" })).body.error).toContain("already a member");
  });
});

describe("/metrics with GW_METRICS_TOKEN", () => {
  test("needs the bearer token", async () => {
    expect((await h.fetch("/metrics")).status).toBe(401);
    expect((await h.fetch("/metrics", { headers: { authorization: "Bearer wrong-token-123" } })).status).toBe(401);
    const ok = await h.fetch("/metrics", { headers: { authorization: "Bearer scrape-token-123" } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("gateway_");
  });
});

describe("session calls and Origin", () => {
  const asSession = (operation: string, params: object, origin: string | null) =>
    h.fetch("/api/v1/gateway", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: h.member.headers.cookie as string, ...(origin ? { origin } : {}) },
      body: JSON.stringify({ operation, params }),
    });

  test("a read-only operation needs no Origin", async () => {
    expect((await asSession("user.me", {}, null)).status).toBe(200);
    expect((await asSession("provider.list", {}, null)).status).toBe(200);
  });

  test("a state-changing one does, and a cross-site Origin is refused even for reads", async () => {
    expect((await asSession("provider.create", { provider: "groq", apiKey: "gsk_no_origin_0000" }, null)).status).toBe(403);
    expect((await asSession("user.preferences", { set: { timezone: "UTC" } }, null)).status).toBe(403);
    expect((await asSession("user.me", {}, "https://evil.example")).status).toBe(403);
    expect((await asSession("user.preferences", { set: { timezone: "UTC" } }, "http://gw.test")).status).toBe(200);
  });
});

describe("the routing strategy setting", () => {
  test("defaultRouteStrategy is stored now that gateway/auto uses it; an unknown strategy is refused and changes nothing", async () => {
    const bad = await h.op(h.admin, "user.preferences", { set: { defaultRouteStrategy: "cheapest", piiAction: "block" } });
    expect(bad.status).toBe(400);
    expect((await h.op(h.admin, "user.preferences")).body.data.piiAction).toBe("redact");
    const r = await h.op(h.admin, "user.preferences", { set: { defaultRouteStrategy: "cost" } });
    expect(r.status).toBe(200);
    expect((await h.op(h.admin, "user.preferences")).body.data.defaultRouteStrategy).toBe("cost");
    expect((await h.op(h.admin, "user.preferences", { set: { defaultRouteStrategy: "balanced" } })).status).toBe(200);
  });
});
