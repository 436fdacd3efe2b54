/**
 * Sign-in e-mail domains and the operator's approval of them, over a real store. The
 * probe that found the hole: with several organizations, one organization's admin listed
 * another's domain, and first-time sign-ins from it joined the first one. A domain is now
 * listed by one organization only, and with more than one organization it joins only the
 * organization the operator approved it for; with one organization listing is enough.
 */
import { beforeEach, expect, test } from "bun:test";
import { ApiKeyHasher } from "../../src/domain/api-key.ts";
import type { Organization } from "../../src/domain/types.ts";
import type { ServiceDeps } from "../../src/services/deps.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";
import {
  approveSignInDomain,
  listSignInDomains,
  organizationsForDomain,
  refuseTakenDomains,
  revokeSignInDomain,
} from "../../src/services/sign-in-domains.ts";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.ts";

let deps: ServiceDeps;
let acme: Organization;

const list = async (org: Organization, domains: string[]) =>
  deps.store.setOrgPreferences(org.id, { ...(await deps.store.getOrgPreferences(org.id)), signInEmailDomains: domains });
const newOrganization = async (name: string) =>
  (await initializeOrganization(deps, { name, adminEmail: `admin@${name.toLowerCase()}.test`, tier: "enterprise" })).organization;

beforeEach(async () => {
  const store = new SqliteStore(":memory:");
  await store.migrate();
  let now = 1_000;
  deps = { store, hasher: new ApiKeyHasher(new Uint8Array(32)), onKeyChanged: () => {}, onPreferencesChanged: () => {}, now: () => now++ };
  acme = await newOrganization("Acme");
});

test("with one organization a listed domain is in effect at once, without any approval", async () => {
  await list(acme, ["acme.test"]);
  expect(await organizationsForDomain(deps, "acme.test")).toEqual({ orgIds: [acme.id], awaitingApproval: false });
  expect(await organizationsForDomain(deps, "other.test")).toEqual({ orgIds: [], awaitingApproval: false });
  expect(await listSignInDomains(deps)).toEqual([
    { domain: "acme.test", orgId: acme.id, orgName: "Acme", listed: true, approvedAt: null, inEffect: true },
  ]);
});

test("with several organizations a listed domain joins no one until the operator approves it, and stops when revoked", async () => {
  await list(acme, ["acme.test"]);
  const beta = await newOrganization("Beta");
  expect(await organizationsForDomain(deps, "acme.test")).toEqual({ orgIds: [], awaitingApproval: true });
  expect((await listSignInDomains(deps))[0]).toMatchObject({ domain: "acme.test", listed: true, approvedAt: null, inEffect: false });

  const { approval, listed } = await approveSignInDomain(deps, "Acme", " ACME.test ");
  expect(approval).toMatchObject({ domain: "acme.test", orgId: acme.id });
  expect(listed).toBe(true);
  expect(await organizationsForDomain(deps, "acme.test")).toEqual({ orgIds: [acme.id], awaitingApproval: false });
  const audit = (await deps.store.listAudit(acme.id, { limit: 1, before: null })).entries[0];
  expect(audit).toMatchObject({ action: "sign-in-domain.approve", target: "acme.test", actor: "cli" });

  // Approved for Acme, so another organization cannot be approved for it, by name or id.
  const refused = await approveSignInDomain(deps, beta.id, "acme.test").catch((e) => e);
  expect(refused).toMatchObject({ status: 409 });
  expect(refused.message).toContain("revoke that first");

  expect(await revokeSignInDomain(deps, "acme.test")).toMatchObject({ orgId: acme.id });
  expect(await organizationsForDomain(deps, "acme.test")).toEqual({ orgIds: [], awaitingApproval: true });
  expect((await deps.store.listAudit(acme.id, { limit: 1, before: null })).entries[0]).toMatchObject({ action: "sign-in-domain.revoke" });
  expect(await revokeSignInDomain(deps, "acme.test").catch((e) => e.status)).toBe(404);
});

test("an approval for a domain the organization does not list waits for its listing, and is listed as such", async () => {
  await newOrganization("Beta");
  expect((await approveSignInDomain(deps, acme.id, "later.test")).listed).toBe(false);
  expect(await organizationsForDomain(deps, "later.test")).toEqual({ orgIds: [], awaitingApproval: false });
  expect(await listSignInDomains(deps)).toEqual([
    { domain: "later.test", orgId: acme.id, orgName: "Acme", listed: false, approvedAt: expect.any(Number), inEffect: false },
  ]);
  await list(acme, ["later.test"]);
  expect(await organizationsForDomain(deps, "later.test")).toEqual({ orgIds: [acme.id], awaitingApproval: false });
});

test("a domain another organization lists, or is approved for, is a 409 that does not name it; one's own list changes freely", async () => {
  const beta = await newOrganization("Beta");
  await list(acme, ["acme.test"]);
  const taken = await refuseTakenDomains(deps, beta.id, [], ["beta.test", "acme.test"]).catch((e) => e);
  expect(taken).toMatchObject({ status: 409, code: "conflict", param: "params.set.signInEmailDomains" });
  expect(taken.message).toContain("acme.test is already listed by another organization");
  expect(taken.message).not.toContain("Acme");
  expect(taken.message).not.toContain(acme.id);

  // Approved for Acme though Acme no longer lists it: still Acme's.
  await approveSignInDomain(deps, acme.id, "acme.test");
  await list(acme, []);
  expect(await refuseTakenDomains(deps, beta.id, [], ["acme.test"]).catch((e) => e.status)).toBe(409);
  await refuseTakenDomains(deps, acme.id, [], ["acme.test"]);

  // Domains already on one's own list are not checked again, and removing is always allowed.
  await refuseTakenDomains(deps, beta.id, ["acme.test"], ["acme.test", "beta.test"]);
  await refuseTakenDomains(deps, beta.id, ["acme.test"], []);
});

test("bad domains and unknown organizations are refused in words", async () => {
  for (const domain of ["not a domain", "-x.test", "nodot", "a".repeat(300)])
    expect(await approveSignInDomain(deps, acme.id, domain).catch((e) => [e.status, e.message.includes("not a domain name")])).toEqual([
      400,
      true,
    ]);
  expect(await approveSignInDomain(deps, "Nobody", "x.test").catch((e) => e.status)).toBe(404);
});
