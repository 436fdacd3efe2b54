/**
 * Invitations through the operations endpoint. The probe that found the hole: an
 * invitation could not be withdrawn. Inviting a free address makes a member who is
 * hidden from `org.members.list` until they first sign in, so an admin who invited the
 * wrong address (as admin, say) had no id to remove them by, and the address could sign
 * in as that member at any later time. Removing such a member (by an id found elsewhere)
 * left the invitation listed as pending for ever, and inviting the address again was a
 * 409. `org.invitation.cancel` withdraws one, alike for a free address and one another
 * organization holds; removing a member drops their invitation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { consumeLoginLink, createLoginLink } from "../../src/services/sessions.ts";
import { type Harness, startHarness } from "../security/harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // Another organization holds this address.
  await initializeOrganization(h.rt.services, { name: "Elsewhere", adminEmail: "taken@elsewhere.example", tier: "starter" });
});

afterAll(() => h.close());

const pending = async () => ((await h.op(h.admin, "org.members.list")).body.data.invitations as { email: string }[]).map((i) => i.email);

test("an admin withdraws an invitation: the invited address can no longer sign in here, and may be invited again", async () => {
  expect((await h.op(h.admin, "org.members.invite", { email: "wrong@example.org", role: "admin" })).status).toBe(200);
  const invited = await h.rt.store.getUserByEmail("wrong@example.org");
  expect(invited?.orgId).toBe(h.org.organization.id);
  // A sign-in link the operator printed for the address before the invitation was withdrawn.
  const link = await createLoginLink(h.rt.store, invited!, Date.now());

  const r = await h.op(h.adminSession, "org.invitation.cancel", { email: " Wrong@Example.org " });
  expect(r.status).toBe(200);
  expect(r.body.data).toEqual({ email: "wrong@example.org", cancelled: true });
  expect(await pending()).not.toContain("wrong@example.org");
  expect(await h.rt.store.getUserByEmail("wrong@example.org")).toBeNull();
  expect(await consumeLoginLink(h.rt.store, link.token, Date.now())).toBeNull();
  const audit = (await h.rt.store.listAudit(h.org.organization.id, { limit: 1, before: null })).entries[0];
  expect(audit).toMatchObject({ action: "member.invite-cancel", target: "wrong@example.org", details: { role: "admin" } });

  expect((await h.op(h.admin, "org.invitation.cancel", { email: "wrong@example.org" })).status).toBe(404);
  expect((await h.op(h.admin, "org.members.invite", { email: "wrong@example.org" })).status).toBe(200);
});

test("withdrawing answers the same for an address another organization holds, and leaves that member alone", async () => {
  expect((await h.op(h.admin, "org.members.invite", { email: "taken@elsewhere.example" })).status).toBe(200);
  const r = await h.op(h.admin, "org.invitation.cancel", { email: "taken@elsewhere.example" });
  expect(r.status).toBe(200);
  expect(r.body.data).toEqual({ email: "taken@elsewhere.example", cancelled: true });
  expect(await pending()).not.toContain("taken@elsewhere.example");
  expect((await h.rt.store.getUserByEmail("taken@elsewhere.example"))?.orgId).not.toBe(h.org.organization.id);
});

test("a member who signed in is removed with org.member.remove, not withdrawn; removing drops their invitation", async () => {
  expect((await h.op(h.admin, "org.members.invite", { email: "joined@example.org" })).status).toBe(200);
  const joined = await h.rt.store.getUserByEmail("joined@example.org");
  await consumeLoginLink(h.rt.store, (await createLoginLink(h.rt.store, joined!, Date.now())).token, Date.now());
  expect((await h.op(h.admin, "org.invitation.cancel", { email: "joined@example.org" })).status).toBe(404);

  // An invited member removed by id (found in the store here): the invitation goes with them.
  expect((await h.op(h.admin, "org.members.invite", { email: "gone@example.org" })).status).toBe(200);
  const gone = await h.rt.store.getUserByEmail("gone@example.org");
  expect((await h.op(h.admin, "org.member.remove", { userId: gone!.id })).status).toBe(200);
  expect(await pending()).not.toContain("gone@example.org");
  expect((await h.op(h.admin, "org.members.invite", { email: "gone@example.org" })).status).toBe(200);
});

test("bad input is a 400 naming the field and changes nothing; members and keys of other roles are refused", async () => {
  for (const email of ["not-an-address", "a@b", "x".repeat(300)]) {
    const r = await h.op(h.admin, "org.invitation.cancel", { email });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: "invalid_request" });
  }
  expect((await h.op(h.admin, "org.members.invite", { email: "kept@example.org" })).status).toBe(200);
  for (const who of [h.memberSession, h.memberKey, h.sandboxAdminKey])
    expect((await h.op(who, "org.invitation.cancel", { email: "kept@example.org" })).status).toBe(403);
  expect(await pending()).toContain("kept@example.org");
});

describe("invitations expire 7 days after they were sent", () => {
  const DAY = 24 * 3600 * 1000;
  const realNow = () => Date.now();
  let offset = 0;
  beforeAll(() => {
    h.rt.services.now = () => realNow() + offset;
  });
  afterEach(() => {
    offset = 0;
  });
  afterAll(() => {
    h.rt.services.now = realNow;
  });
  const listed = async (email: string) =>
    (
      (await h.op(h.admin, "org.members.list")).body.data.invitations as {
        email: string;
        status: string;
        invitedAt: string;
        expiresAt: string;
      }[]
    ).find((i) => i.email === email);
  /** A sign-in link for `email` at the services' clock, as `gateway login-link` prints one. */
  const linkFor = async (email: string) => {
    const user = await h.rt.store.getUserByEmail(email);
    return (await createLoginLink(h.rt.store, user!, h.rt.services.now())).token;
  };
  const open = (token: string) => h.fetch(`/auth/link?token=${token}`);
  const openLink = async (email: string) => open(await linkFor(email));

  test("an expired invitation is listed as expired and does not let its address sign in; the refusal is audited", async () => {
    expect((await h.op(h.admin, "org.members.invite", { email: "late@example.org" })).status).toBe(200);
    const fresh = await listed("late@example.org");
    expect(fresh?.status).toBe("pending");
    expect(Date.parse(fresh!.expiresAt) - Date.parse(fresh!.invitedAt)).toBe(7 * DAY);

    // A link printed a minute before the invitation ran out (links last 10 minutes), opened after.
    offset = 7 * DAY - 60_000;
    const token = await linkFor("late@example.org");
    offset = 7 * DAY + 1000;
    expect((await listed("late@example.org"))?.status).toBe("expired");
    const refused = await open(token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("invitation of late@example.org expired");
    const audit = (await h.rt.store.listAudit(h.org.organization.id, { limit: 1, before: null })).entries[0];
    expect(audit).toMatchObject({ action: "session.sign-in-failed", details: { via: "link" } });
    // Still an invitation, not a member: the refusal accepted nothing.
    expect((await listed("late@example.org"))?.status).toBe("expired");
  });

  test("no sign-in link is made for an expired invitation: `gateway login-link` says why instead of printing a link that is a 403", async () => {
    expect((await h.op(h.admin, "org.members.invite", { email: "unlinked@example.org" })).status).toBe(200);
    offset = 7 * DAY + 1000;
    await expect(linkFor("unlinked@example.org")).rejects.toThrow("invitation of unlinked@example.org expired");
    offset = 0;
    expect(await linkFor("unlinked@example.org")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("re-inviting an expired invitation renews it for 7 days from then, with the role given", async () => {
    expect((await h.op(h.admin, "org.members.invite", { email: "renewed@example.org" })).status).toBe(200);
    offset = 8 * DAY;
    const again = await h.op(h.admin, "org.members.invite", { email: "renewed@example.org", role: "admin" });
    expect(again.status).toBe(200);
    const renewed = await listed("renewed@example.org");
    expect(renewed).toMatchObject({ status: "pending", role: "admin" });
    expect(Date.parse(renewed!.expiresAt)).toBe(Date.parse(renewed!.invitedAt) + 7 * DAY);
    expect(Date.parse(renewed!.invitedAt)).toBeGreaterThanOrEqual(realNow() + 8 * DAY - 60_000);
    const signedIn = await openLink("renewed@example.org");
    expect(signedIn.status).toBe(303);
    expect((await h.rt.store.getUserByEmail("renewed@example.org"))?.role).toBe("admin");
    // Signed in: a member, no longer an invitation.
    expect(await listed("renewed@example.org")).toBeUndefined();
  });

  test("an expired invitation can be withdrawn", async () => {
    expect((await h.op(h.admin, "org.members.invite", { email: "withdrawn@example.org" })).status).toBe(200);
    offset = 30 * DAY;
    expect((await h.op(h.admin, "org.invitation.cancel", { email: "withdrawn@example.org" })).status).toBe(200);
    expect(await listed("withdrawn@example.org")).toBeUndefined();
    expect(await h.rt.store.getUserByEmail("withdrawn@example.org")).toBeNull();
  });

  test("a pending invitation that has not expired is still a 409 to invite again", async () => {
    expect((await h.op(h.admin, "org.members.invite", { email: "early@example.org" })).status).toBe(200);
    offset = 6 * DAY;
    expect((await h.op(h.admin, "org.members.invite", { email: "early@example.org" })).status).toBe(409);
  });
});
