/**
 * E-mail domains whose verified first-time sign-ins join an organization
 * (`signInEmailDomains`), and the operator's approval of them. An admin's listing proves
 * no ownership, so a domain is listed by one organization only, and on a gateway with
 * more than one organization a listed domain takes effect only once the operator (who
 * holds the database) approved it for that organization: otherwise one organization's
 * admin could list another's domain and take in its people. With one organization there
 * is no one else's people to take in, so listing is enough (the common case, the demo).
 */
import { CLI_ACTOR } from "../domain/identity.ts";
import type { Organization, SignInDomainApproval } from "../domain/types.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import { resolveOrganization } from "./organizations.ts";

/** A domain as `signInEmailDomains` holds it: lower-case labels of letters, digits and inner hyphens. */
export const DOMAIN_PATTERN = "^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$";
const DOMAIN = new RegExp(DOMAIN_PATTERN);

export const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1);

async function listingOrganizations(deps: ServiceDeps, organizations: Organization[], domain: string): Promise<string[]> {
  const listing: string[] = [];
  for (const org of organizations)
    if ((await deps.store.getOrgPreferences(org.id)).signInEmailDomains.includes(domain)) listing.push(org.id);
  return listing;
}

/**
 * For the preference setter: each domain `orgId` adds to its list must be listed by no
 * other organization and approved for none. The 409 does not say which organization
 * holds it (the operator's `gateway sign-in-domains list` does).
 */
export async function refuseTakenDomains(deps: ServiceDeps, orgId: string, current: string[], next: string[]): Promise<void> {
  const added = next.filter((d) => !current.includes(d));
  if (added.length === 0) return;
  const others = (await deps.store.listOrganizations()).filter((o) => o.id !== orgId);
  const listedElsewhere = new Set<string>();
  for (const org of others) for (const d of (await deps.store.getOrgPreferences(org.id)).signInEmailDomains) listedElsewhere.add(d);
  for (const domain of added) {
    const approval = await deps.store.getSignInDomainApproval(domain);
    if (listedElsewhere.has(domain) || (approval !== null && approval.orgId !== orgId))
      throw new ApiError(
        409,
        "conflict",
        `params.set.signInEmailDomains: ${domain} is already listed by another organization on this gateway; a domain joins one organization only. If it is yours, ask the gateway's operator.`,
        { param: "params.set.signInEmailDomains" },
      );
  }
}

/** Where a first-time sign-in from `domain` may join: the organizations to choose from, and whether a listing awaits approval. */
export interface DomainJoin {
  orgIds: string[];
  awaitingApproval: boolean;
}

export async function organizationsForDomain(deps: ServiceDeps, domain: string): Promise<DomainJoin> {
  const organizations = await deps.store.listOrganizations();
  const listing = await listingOrganizations(deps, organizations, domain);
  if (organizations.length <= 1) return { orgIds: listing, awaitingApproval: false };
  const approval = await deps.store.getSignInDomainApproval(domain);
  const orgIds = approval && listing.includes(approval.orgId) ? [approval.orgId] : [];
  return { orgIds, awaitingApproval: listing.length > 0 && orgIds.length === 0 };
}

function checkDomain(raw: string): string {
  const domain = raw.trim().toLowerCase();
  if (domain.length > 253 || !DOMAIN.test(domain)) throw badRequest(`"${raw.slice(0, 80)}" is not a domain name (such as example.com)`);
  return domain;
}

/** `gateway sign-in-domains approve`: `domain` joins `orgRef` (id or name); refused while approved for another organization. */
export async function approveSignInDomain(
  deps: ServiceDeps,
  orgRef: string,
  rawDomain: string,
): Promise<{ approval: SignInDomainApproval; organization: Organization; listed: boolean }> {
  const domain = checkDomain(rawDomain);
  const organization = await resolveOrganization(deps, orgRef);
  const approval = await deps.store.approveSignInDomain({ domain, orgId: organization.id, approvedAt: deps.now() });
  if (approval.orgId !== organization.id) {
    const holder = await deps.store.getOrganization(approval.orgId);
    throw new ApiError(
      409,
      "conflict",
      `${domain} is approved for "${holder?.name ?? approval.orgId}" (${approval.orgId}); revoke that first (sign-in-domains revoke ${domain})`,
    );
  }
  await recordAudit(deps.store, organization.id, CLI_ACTOR, "sign-in-domain.approve", domain, { domain }, deps.now());
  const listed = (await deps.store.getOrgPreferences(organization.id)).signInEmailDomains.includes(domain);
  return { approval, organization, listed };
}

/** `gateway sign-in-domains revoke`: first-time sign-ins from `domain` join no organization of several again. */
export async function revokeSignInDomain(deps: ServiceDeps, rawDomain: string): Promise<SignInDomainApproval> {
  const domain = checkDomain(rawDomain);
  const revoked = await deps.store.revokeSignInDomain(domain);
  if (!revoked) throw new ApiError(404, "not_found", `${domain} is not approved for any organization`);
  await recordAudit(deps.store, revoked.orgId, CLI_ACTOR, "sign-in-domain.revoke", domain, { domain }, deps.now());
  return revoked;
}

/** One line of `gateway sign-in-domains list`: a domain an organization lists, or one approved for it. */
export interface DomainStatus {
  domain: string;
  orgId: string;
  orgName: string;
  listed: boolean;
  approvedAt: number | null;
  /** Whether first-time sign-ins from it join this organization now. */
  inEffect: boolean;
}

export async function listSignInDomains(deps: ServiceDeps): Promise<DomainStatus[]> {
  const organizations = await deps.store.listOrganizations();
  const approvals = await deps.store.listSignInDomainApprovals();
  const rows: DomainStatus[] = [];
  const seen = new Set<string>();
  const approvedAt = (domain: string, orgId: string) => approvals.find((a) => a.domain === domain && a.orgId === orgId)?.approvedAt ?? null;
  for (const org of organizations) {
    const listed = (await deps.store.getOrgPreferences(org.id)).signInEmailDomains;
    for (const domain of listed) {
      seen.add(`${org.id} ${domain}`);
      const at = approvedAt(domain, org.id);
      rows.push({
        domain,
        orgId: org.id,
        orgName: org.name,
        listed: true,
        approvedAt: at,
        inEffect: organizations.length <= 1 || at !== null,
      });
    }
  }
  for (const a of approvals) {
    if (seen.has(`${a.orgId} ${a.domain}`)) continue;
    const org = organizations.find((o) => o.id === a.orgId);
    rows.push({
      domain: a.domain,
      orgId: a.orgId,
      orgName: org?.name ?? a.orgId,
      listed: false,
      approvedAt: a.approvedAt,
      inEffect: false,
    });
  }
  return rows.sort((x, y) => x.domain.localeCompare(y.domain) || x.orgName.localeCompare(y.orgName));
}
