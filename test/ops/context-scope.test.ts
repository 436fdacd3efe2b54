/**
 * The gateway request's `context.scope`, through the running gateway: the side of the
 * organization an operation acts on (docs/decisions.md). The organization and a member
 * each hold an OpenAI key at the project's mock provider, so which key served a call
 * shows which side it was resolved on.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type RunningMock, startMockProvider } from "../support/gateway-process.ts";
import { type Caller, type Harness, startHarness } from "../security/harness.ts";

let h: Harness;
let mock: RunningMock;

const ORG_KEY = "sk-organization-0001";
const MEMBER_KEY = "sk-member-own-0002";
const ORG_CLAUDE_KEY = "sk-ant-team-0003";

async function gw(who: Caller, operation: string, params: unknown, context?: unknown) {
  const res = await h.fetch("/api/v1/gateway", {
    method: "POST",
    headers: { "content-type": "application/json", ...who.headers },
    body: JSON.stringify({ operation, params, ...(context === undefined ? {} : { context }) }),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const ask = { provider: "openai", model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] };

/** The provider key the mock saw on its last chat call. */
const lastKey = async () =>
  (await mock.requests())
    .filter((r: any) => r.path === "/v1/chat/completions")
    .at(-1)?.authorization;

beforeAll(async () => {
  mock = await startMockProvider();
  h = await startHarness();
  const baseUrl = `${mock.url}/v1`;
  const org = await gw(h.admin, "provider.create", { provider: "openai", name: "org-openai", apiKey: ORG_KEY, baseUrl, scope: "organization" });
  expect(org.status).toBe(200);
  const own = await gw(h.member, "provider.create", { provider: "openai", name: "member-openai", apiKey: MEMBER_KEY, baseUrl });
  expect(own.status).toBe(200);
});

afterAll(async () => {
  await h.close();
  await mock.stop();
});

test("a member's call uses their own key first, and the organization's with context.scope organization", async () => {
  const mine = await gw(h.member, "ai.proxy", ask);
  expect(mine.status).toBe(200);
  expect(await lastKey()).toBe(`Bearer ${MEMBER_KEY}`);
  const org = await gw(h.member, "ai.proxy", ask, { scope: "organization" });
  expect(org.status).toBe(200);
  expect(org.headers.get("x-gw-provider")).toStartWith("org-openai");
  expect(await lastKey()).toBe(`Bearer ${ORG_KEY}`);
});

test("a routed call (ai.route) with context.scope organization is served with an organization key", async () => {
  const before = (await mock.requests()).length;
  const routed = await gw(h.member, "ai.route", { strategy: "cost", messages: ask.messages }, { scope: "organization" });
  expect(routed.status).toBe(200);
  const sent = ((await mock.requests()) as any[]).slice(before);
  expect(sent.length).toBeGreaterThan(0);
  for (const r of sent) expect([`Bearer ${ORG_KEY}`, ORG_CLAUDE_KEY]).toContain(r.authorization ?? r.apiKey);
});

test("context.scope user keeps a call to the caller's own providers", async () => {
  const own = await gw(h.member, "ai.proxy", ask, { scope: "user" });
  expect(own.status).toBe(200);
  expect(await lastKey()).toBe(`Bearer ${MEMBER_KEY}`);
  // The admin has no provider of their own: the organization's is not taken instead.
  const calls = (await mock.requests()).length;
  const none = await gw(h.adminSession, "ai.proxy", ask, { scope: "user" });
  expect(none.body.success).toBe(false);
  expect((await mock.requests()).length).toBe(calls);
});

test("a service account has no side of its own: context.scope user is a 400 naming it", async () => {
  for (const op of ["ai.proxy", "provider.list", "ai.models"]) {
    const res = await gw(h.admin, op, op === "ai.proxy" ? ask : {}, { scope: "user" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_request");
    expect(res.body.error).toContain("context.scope");
  }
  const org = await gw(h.admin, "ai.proxy", ask, { scope: "organization" });
  expect(org.status).toBe(200);
  expect(await lastKey()).toBe(`Bearer ${ORG_KEY}`);
});

test("provider.create with context.scope organization is an admin's act: a member is refused and audited", async () => {
  const params = { provider: "anthropic", name: "team-claude", apiKey: ORG_CLAUDE_KEY, baseUrl: `${mock.url}` };
  for (const who of [h.member, h.memberKey]) {
    const refused = await gw(who, "provider.create", params, { scope: "organization" });
    expect(refused.status).toBe(403);
    const entry = (await h.rt.store.listAudit(h.org.organization.id, { limit: 1, before: null })).entries[0];
    expect(entry).toMatchObject({ action: "access.denied", target: "provider.create", details: { access: "admin" } });
  }
  const made = await gw(h.adminSession, "provider.create", params, { scope: "organization" });
  expect(made.status).toBe(200);
  expect(made.body.data.provider).toMatchObject({ name: "team-claude", scope: "organization", ownerUserId: null });
});

test("an operation's own scope param wins over the context", async () => {
  const params = { provider: "openai", name: "admin-own", apiKey: "sk-admin-own-0004", baseUrl: `${mock.url}/v1`, scope: "user" };
  const made = await gw(h.adminSession, "provider.create", params, { scope: "organization" });
  expect(made.status).toBe(200);
  expect(made.body.data.provider).toMatchObject({ name: "admin-own", scope: "user", ownerUserId: h.org.user.id });
  const listed = await gw(h.adminSession, "provider.list", { scope: "user" }, { scope: "organization" });
  expect(listed.body.data.providers.map((p: any) => p.name)).toEqual(["admin-own"]);
});

test("provider.list, ai.health and ai.models show the side the context names", async () => {
  const names = async (who: Caller, scope?: string) =>
    ((await gw(who, "provider.list", {}, scope ? { scope } : undefined)).body.data.providers as any[]).map((p) => p.name).sort();
  expect(await names(h.member)).toEqual(["member-openai", "org-openai", "team-claude"]);
  expect(await names(h.member, "organization")).toEqual(["org-openai", "team-claude"]);
  expect(await names(h.member, "user")).toEqual(["member-openai"]);
  // An admin sees every member's provider, but their own side is their own.
  expect(await names(h.adminSession)).toContain("member-openai");
  expect(await names(h.adminSession, "user")).toEqual(["admin-own"]);
  const health = await gw(h.member, "ai.health", {}, { scope: "organization" });
  expect((health.body.data.providers as any[]).map((p) => p.name).sort()).toEqual(["org-openai", "team-claude"]);
  const models = await gw(h.member, "ai.models", {}, { scope: "organization" });
  const owners = new Set((models.body.data.data as any[]).map((m) => m.owned_by));
  expect(owners.has("member-openai")).toBe(false);
  expect(owners.has("org-openai")).toBe(true);
});

test("an operation without a side ignores the context", async () => {
  const res = await gw(h.admin, "org.members.list", {}, { scope: "user" });
  expect(res.status).toBe(200);
});
