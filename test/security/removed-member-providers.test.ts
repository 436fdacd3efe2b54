/**
 * A removed member's personal providers stop serving. The probe that found the hole:
 * after org.member.remove, calls to `m2-personal/gpt-4o-mini` still went through the
 * removed person's key and base URL. Now removal disables them (listed as such, never
 * used, not even by provider.test) until an admin deletes them; the service account the
 * member created belongs to the organization and keeps working.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { addMember } from "../../src/services/organizations.ts";
import { startSession } from "../../src/services/sessions.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { type Caller, type Harness, ORIGIN, startHarness } from "./harness.ts";

const mock = mockPerFile();
let h: Harness;
let m2: Caller;
let m2Id: string;
let botKey: Caller;
let providerId: string;

const sent = async () => (await mock.requests()) as { authorization: string | null }[];

async function chat(who: Caller, model: string) {
  const res = await h.chat(who, model);
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  h = await startHarness();
  const user = await addMember(h.rt.services, CLI_ACTOR, h.org.organization.id, { email: "m2@example.com", role: "admin" });
  m2Id = user.id;
  m2 = { headers: { cookie: `gw_session=${await startSession(h.rt.store, user, Date.now())}`, origin: ORIGIN }, label: "m2" };
  const created = await h.op(m2, "provider.create", {
    provider: "custom",
    name: "m2-personal",
    apiKey: "sk-m2-personal-key-0000",
    baseUrl: `${mock.url}/v1`,
    country: "US",
    models: ["gpt-4o-mini"],
    scope: "user",
  });
  expect(created.status).toBe(200);
  providerId = created.body.data.provider.id;
  const bot = await h.op(m2, "org.service-account.create", { serviceAccountName: "m2-bot" });
  expect(bot.status).toBe(200);
  botKey = { headers: { authorization: `Bearer ${bot.body.data.apiKey.key}` }, label: "m2's bot" };
});

afterAll(async () => {
  await h.close();
});

test("before removal the member's service account reaches the member's provider, so the probe below can see a call", async () => {
  expect((await chat(botKey, "m2-personal/gpt-4o-mini")).status).toBe(200);
  expect((await sent()).at(-1)?.authorization).toBe("Bearer sk-m2-personal-key-0000");
});

test("removal disables the member's providers and says so; nothing reaches them afterwards", async () => {
  const removed = await h.op(h.admin, "org.member.remove", { userId: m2Id });
  expect(removed.status).toBe(200);
  expect(removed.body.data).toMatchObject({
    userId: m2Id,
    removed: true,
    providersDisabled: [{ id: providerId, name: "m2-personal", provider: "custom" }],
  });
  const before = (await sent()).length;
  // The service account is the organization's: it keeps working, without the removed person's key.
  expect((await h.op(botKey, "user.me")).status).toBe(200);
  expect((await chat(botKey, "m2-personal/gpt-4o-mini")).status).not.toBe(200);
  expect((await chat(h.admin, "m2-personal/gpt-4o-mini")).status).not.toBe(200);
  const tested = await h.op(h.admin, "provider.test", { id: providerId });
  expect(tested.body.data).toMatchObject({ reachable: null, error: expect.stringContaining("disabled") });
  expect((await sent()).length).toBe(before);
});

test("an admin sees it as disabled, cannot bring it back with provider.update, and confirms with provider.delete", async () => {
  const listed = (await h.op(h.admin, "provider.list")).body.data.providers.find((p: { id: string }) => p.id === providerId);
  expect(listed).toMatchObject({ status: "disabled", disabled: { reason: expect.stringContaining("m2@example.com") } });
  const update = await h.op(h.admin, "provider.update", { id: providerId, scope: "organization" });
  expect(update.status).toBe(409);
  expect(update.body.error).toContain("provider.delete");
  // A member cannot see it, so cannot delete it either.
  expect((await h.op(h.memberSession, "provider.delete", { id: providerId })).status).toBe(404);
  const deleted = await h.op(h.admin, "provider.delete", { id: providerId });
  expect(deleted.body.data).toEqual({ id: providerId, deleted: true });
  const after = (await h.op(h.admin, "provider.list")).body.data.providers.map((p: { id: string }) => p.id);
  expect(after).not.toContain(providerId);
});
