/**
 * `user.preferences` and `signInEmailDomains` on a gateway with several organizations. The
 * probe that found the hole: one organization's admin listed another's e-mail domain, and
 * first-time sign-ins from it joined the first one. Listing a domain another organization
 * lists is now a 409 that does not name that organization, and nothing is saved.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InitializedOrganization, initializeOrganization } from "../../src/services/organizations.ts";
import { type Caller, type Harness, startHarness } from "../security/harness.ts";

let h: Harness;
let other: InitializedOrganization;
let otherAdmin: Caller;

beforeAll(async () => {
  h = await startHarness();
  other = await initializeOrganization(h.rt.services, { name: "Rival Org", adminEmail: "admin@rival.example", tier: "enterprise" });
  otherAdmin = { headers: { authorization: `Bearer ${other.keyValue}` }, label: "the other organization's admin key" };
});

afterAll(() => h.close());

const domainsOf = async (orgId: string) => (await h.rt.store.getOrgPreferences(orgId)).signInEmailDomains;

test("a domain another organization lists is a 409 naming neither it nor its id, and nothing is saved", async () => {
  const mine = await h.op(h.admin, "user.preferences", { set: { signInEmailDomains: ["example.com"] } });
  expect(mine.status).toBe(200);
  expect(mine.body.data.signInEmailDomains).toEqual(["example.com"]);

  const r = await h.op(otherAdmin, "user.preferences", {
    set: { signInEmailDomains: ["rival.example", "example.com"], timezone: "Europe/Paris" },
  });
  expect(r.status).toBe(409);
  expect(r.body).toMatchObject({ success: false, code: "conflict" });
  expect(r.body.error).toContain("example.com is already listed by another organization on this gateway");
  expect(r.body.error).not.toContain("Attacked Org");
  expect(r.body.error).not.toContain(h.org.organization.id);
  expect(await domainsOf(other.organization.id)).toEqual([]);
  expect((await h.rt.store.getPersonalPreferences(other.serviceAccount.id)).timezone).toBe("UTC");

  // Its own domain alone is fine; the first organization changes its list freely.
  expect((await h.op(otherAdmin, "user.preferences", { set: { signInEmailDomains: ["rival.example"] } })).status).toBe(200);
  expect((await h.op(h.adminSession, "user.preferences", { set: { signInEmailDomains: ["example.com", "example.org"] } })).status).toBe(
    200,
  );
  expect(await domainsOf(h.org.organization.id)).toEqual(["example.com", "example.org"]);
  // Dropped by the first, the domain is free to list.
  expect((await h.op(h.admin, "user.preferences", { set: { signInEmailDomains: ["example.org"] } })).status).toBe(200);
  expect((await h.op(otherAdmin, "user.preferences", { set: { signInEmailDomains: ["rival.example", "example.com"] } })).status).toBe(200);
});
