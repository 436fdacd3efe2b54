/**
 * notifications.list and notifications.read through the operations endpoint: read marks
 * belong to the caller (a user, or a service account with all its keys), so what one
 * member marks read stays unread for everyone else.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../src/domain/ids.ts";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { rotateKey } from "../../src/services/org-admin.ts";
import { addMember, initializeOrganization } from "../../src/services/organizations.ts";
import { createServiceAccountWithKey } from "../../src/services/service-accounts.ts";
import { SESSION_COOKIE, startSession } from "../../src/services/sessions.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;
let adminKey: { key: string };
let adminSession: { cookie: string };
let memberSession: { cookie: string };
let memberKey: { key: string; id: string };
const ids = [newId("ntf"), newId("ntf"), newId("ntf")] as const;

beforeAll(async () => {
  gw = await startInProcessGateway();
  const s = gw.rt.services;
  const orgId = gw.init.organization.id;
  adminKey = { key: gw.init.keyValue };
  const member = await addMember(s, CLI_ACTOR, orgId, { email: "member@acme.test", role: "member" });
  adminSession = { cookie: `${SESSION_COOKIE}=${await startSession(s.store, gw.init.user, s.now())}` };
  memberSession = { cookie: `${SESSION_COOKIE}=${await startSession(s.store, member, s.now())}` };
  const bot = await createServiceAccountWithKey(s, CLI_ACTOR, gw.init.organization, member.id, {
    serviceAccountName: "member-bot",
    name: "default",
    keyType: "live",
    role: "member",
  });
  memberKey = { key: bot.keyValue, id: bot.apiKey.id };
  for (let i = 0; i < 3; i++) {
    const n = { orgId, kind: "budget.threshold", severity: "warning" as const, title: `alert ${i}`, body: { i } };
    await gw.rt.store.createNotification({ ...n, id: ids[i]!, createdAt: gw.clock.now - (3 - i) * 1000 });
  }
});

afterAll(() => gw.stop());

const list = async (as: { key?: string; cookie?: string }, params: Record<string, unknown> = {}) => {
  const r = await gw.op(as, "notifications.list", params);
  expect(r.status).toBe(200);
  return r.body.data as { notifications: { id: string; title: string; readAt: string | null }[]; unread: number };
};

test("a member's read leaves the admin's alerts unread, by session and by key", async () => {
  const read = await gw.op(memberSession, "notifications.read", { all: true });
  expect(read.body.data).toEqual({ marked: 3 });

  const mine = await list(memberSession);
  expect(mine.unread).toBe(0);
  expect(mine.notifications.map((n) => n.readAt)).toEqual(Array(3).fill(new Date(gw.clock.now).toISOString()));
  expect((await list(memberSession, { unreadOnly: true })).notifications).toEqual([]);

  for (const admin of [adminSession, adminKey]) {
    const theirs = await list(admin, { unreadOnly: true });
    expect(theirs.unread).toBe(3);
    expect(theirs.notifications.map((n) => n.title)).toEqual(["alert 2", "alert 1", "alert 0"]);
  }
  // The member's own service account is another reader as well.
  expect((await list(memberKey)).unread).toBe(3);
});

test("the admin's marks are the admin's: a session and a key are two readers", async () => {
  expect((await gw.op(adminSession, "notifications.read", { ids: [ids[1]] })).body.data).toEqual({ marked: 1 });
  expect((await gw.op(adminSession, "notifications.read", { ids: [ids[1]] })).body.data).toEqual({ marked: 0 });
  expect((await list(adminSession, { unreadOnly: true })).notifications.map((n) => n.id)).toEqual([ids[2], ids[0]]);
  expect((await list(adminKey)).unread).toBe(3);
  // `unread` counts what the page shows: here the newest one, still unread for the admin.
  expect(await list(adminSession, { limit: 1 })).toMatchObject({ unread: 1, notifications: [{ id: ids[2], readAt: null }] });
});

test("a service account's keys share its marks: a rotated key finds them", async () => {
  await gw.op(memberKey, "notifications.read", { ids: [ids[0]] });
  const rotated = await rotateKey(gw.rt.services, CLI_ACTOR, gw.init.organization.id, memberKey.id, 0);
  expect((await list({ key: rotated.keyValue }, { unreadOnly: true })).notifications.map((n) => n.id)).toEqual([ids[2], ids[1]]);
});

test("another organization's notifications are neither listed nor marked", async () => {
  const other = await initializeOrganization(gw.rt.services, { name: "Other", adminEmail: "admin@other.test", tier: "enterprise" });
  const theirs = newId("ntf");
  await gw.rt.store.createNotification({
    id: theirs,
    orgId: other.organization.id,
    kind: "budget.threshold",
    severity: "info",
    title: "other",
    body: {},
    createdAt: gw.clock.now,
  });
  expect((await gw.op(adminSession, "notifications.read", { ids: [theirs] })).body.data).toEqual({ marked: 0 });
  expect((await list(adminSession)).notifications.map((n) => n.id)).not.toContain(theirs);
  expect((await list({ key: other.keyValue }, { unreadOnly: true })).notifications.map((n) => n.id)).toEqual([theirs]);
});
