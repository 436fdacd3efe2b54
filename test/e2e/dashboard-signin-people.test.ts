/**
 * Who may sign in, through a real identity provider (oidc-provider, in process) against the
 * gateway app in process, on a gateway with two organizations: an invitation lets its
 * address in for 7 days, then is refused (audited) until an admin invites again; a first
 * sign-in by e-mail domain joins an organization only once the operator approved the domain
 * for it, and a domain is listed by one organization only.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InitializedOrganization, initializeOrganization } from "../../src/services/organizations.ts";
import { approveSignInDomain, revokeSignInDomain } from "../../src/services/sign-in-domains.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { startTestIdp, type TestIdp } from "../support/oidc-idp.ts";
import { TestBrowser } from "../support/test-browser.ts";

const GATEWAY = "http://gateway.test";
const DAY = 24 * 3600 * 1000;
let idp: TestIdp;
let gw: InProcessGateway;
let acme: InitializedOrganization;
let beta: InitializedOrganization;

beforeAll(async () => {
  idp = await startTestIdp([`${GATEWAY}/signup/callback`]);
  gw = await startInProcessGateway({
    origin: GATEWAY,
    env: {
      GW_OIDC_ISSUER: idp.issuer,
      GW_OIDC_CLIENT_ID: idp.clientId,
      GW_OIDC_CLIENT_SECRET: idp.clientSecret,
      // The identity provider runs on loopback, which the egress policy reaches only with this.
      GW_ALLOW_PRIVATE_EGRESS: "1",
    },
  });
  acme = gw.init;
  beta = await initializeOrganization(gw.rt.services, { name: "Beta", adminEmail: "admin@beta.test", tier: "enterprise" });
});

afterAll(async () => {
  await gw.stop();
  await idp.stop();
});

/** Signs in through the identity provider; returns the browser and the page it ended on. */
async function signIn(email: string, verified = true) {
  idp.signInAs(email, verified);
  const browser = new TestBrowser(GATEWAY, gw.handle);
  const hops = await browser.navigate(`${GATEWAY}/signup`);
  return { browser, last: hops.at(-1)!, session: () => browser.cookie("gateway.test", "gw_session") };
}

/** An operation as an organization's admin key. */
const op = (org: InitializedOrganization, operation: string, params: unknown = {}) => gw.op({ key: org.keyValue }, operation, params);

const lastAudit = async (org: InitializedOrganization) =>
  (await gw.rt.store.listAudit(org.organization.id, { limit: 1, before: null })).entries[0];

test("an invitation lets its address sign in for 7 days; after that the sign-in is refused and audited until the admin invites again", async () => {
  expect((await op(acme, "org.members.invite", { email: "early@acme.test" })).status).toBe(200);
  expect((await op(acme, "org.members.invite", { email: "late@acme.test" })).status).toBe(200);
  gw.clock.now += 6 * DAY;
  const early = await signIn("early@acme.test");
  expect(early.last.url).toBe(`${GATEWAY}/dashboard`);
  expect(early.session()).toBeDefined();

  gw.clock.now += 2 * DAY;
  const late = await signIn("late@acme.test");
  expect(late.last.status).toBe(403);
  const page = await late.last.response.text();
  expect(page).toContain("The invitation of late@acme.test expired");
  expect(page).toContain("invite you again");
  expect(late.session()).toBeUndefined();
  expect(await lastAudit(acme)).toMatchObject({ action: "session.sign-in-failed", details: { via: "oidc" } });
  const listed = (await op(acme, "org.members.list")).body.data;
  expect(listed.invitations.map((i: { email: string; status: string }) => [i.email, i.status])).toEqual([["late@acme.test", "expired"]]);

  // Renewed by inviting again: the same person gets in.
  expect((await op(acme, "org.members.invite", { email: "late@acme.test" })).status).toBe(200);
  const renewed = await signIn("late@acme.test");
  expect(renewed.last.url).toBe(`${GATEWAY}/dashboard`);
  expect((await op(acme, "org.members.list")).body.data.invitations).toEqual([]);
});

test("with two organizations a first sign-in by e-mail domain joins only once the operator approved the domain, and another organization cannot list it", async () => {
  expect((await op(acme, "user.preferences", { set: { signInEmailDomains: ["acme.test"] } })).status).toBe(200);
  // Beta's admin lists Acme's domain: refused, without saying who holds it.
  const taken = await op(beta, "user.preferences", { set: { signInEmailDomains: ["acme.test"] } });
  expect(taken.status).toBe(409);
  expect(taken.body.error).not.toContain("Acme");
  // Beta's admin lists a domain no one else lists (its people's, say, or anyone's): listing alone lets no one in.
  expect((await op(beta, "user.preferences", { set: { signInEmailDomains: ["beta.test"] } })).status).toBe(200);
  const waiting = await signIn("newcomer@beta.test");
  expect(waiting.last.status).toBe(403);
  expect(await waiting.last.response.text()).toContain("awaits the approval of the gateway&#39;s operator");
  expect(await gw.rt.store.getUserByEmail("newcomer@beta.test")).toBeNull();
  // Only a verified address hears that the domain awaits approval.
  const unverified = await (await signIn("someone@beta.test", false)).last.response.text();
  expect(unverified).toContain("did not mark the address as verified");
  expect(unverified).not.toContain("awaits");

  const before = await signIn("newcomer@acme.test");
  expect(before.last.status).toBe(403);
  expect(before.session()).toBeUndefined();
  expect(await gw.rt.store.getUserByEmail("newcomer@acme.test")).toBeNull();

  // The operator approves it for Acme (what `gateway sign-in-domains approve Acme acme.test` runs).
  await approveSignInDomain(gw.rt.services, "Acme", "acme.test");
  const after = await signIn("newcomer@acme.test");
  expect(after.last.url).toBe(`${GATEWAY}/dashboard`);
  expect(await gw.rt.store.getUserByEmail("newcomer@acme.test")).toMatchObject({ orgId: acme.organization.id, role: "member" });
  expect(await lastAudit(acme)).toMatchObject({ action: "session.sign-in" });

  // Revoked: the next newcomer joins no one; the one who joined stays a member.
  await revokeSignInDomain(gw.rt.services, "acme.test");
  expect((await signIn("second@acme.test")).last.status).toBe(403);
  expect((await signIn("newcomer@acme.test")).last.url).toBe(`${GATEWAY}/dashboard`);
});
