/** Organizations and their members: creation at install time, invitations, listing. */
import { newId } from "../domain/ids.ts";
import type { MemberInvitation, Organization, Role, Tier, User } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import { isPlainText, PLAIN_TEXT_RULE, quotedSafely } from "../lib/plain-text.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import { INVITATION_TTL_MS, invitationStatus } from "./invitation-expiry.ts";
import { type Actor, CLI_ACTOR } from "../domain/identity.ts";
import { type CreatedServiceAccount, createServiceAccountWithKey } from "./service-accounts.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  // An escape sequence passes the shape check ([^\s@]) and would replay in every listing that shows the address.
  if (e.length > 254 || !EMAIL.test(e) || !isPlainText(e))
    throw new ApiError(400, "invalid_request", `${quotedSafely(email, 80)} is not an e-mail address`, { param: "email" });
  return e;
}

export interface InitializedOrganization extends CreatedServiceAccount {
  organization: Organization;
  user: User;
}

/** `gateway init`: the organization, its first admin and an admin service account with a live key. */
export async function initializeOrganization(
  deps: ServiceDeps,
  input: { name: string; adminEmail: string; tier: Tier },
): Promise<InitializedOrganization> {
  const name = input.name.trim();
  if (!name || name.length > 200 || !isPlainText(name))
    throw new ApiError(400, "invalid_request", `the organization name must be 1 to 200 characters of ${PLAIN_TEXT_RULE}`, { param: "org" });
  const email = normalizeEmail(input.adminEmail);
  if (await deps.store.getUserByEmail(email)) throw new ApiError(409, "conflict", `a user with e-mail ${email} already exists`);
  const now = deps.now();
  const organization: Organization = { id: newId("org"), name, tier: input.tier, createdAt: now };
  await deps.store.createOrganization(organization);
  const user: User = { id: newId("usr"), orgId: organization.id, email, role: "admin", createdAt: now };
  await deps.store.createUser(user);
  await recordAudit(deps.store, organization.id, CLI_ACTOR, "organization.create", organization.id, { tier: input.tier }, now);
  await recordAudit(deps.store, organization.id, CLI_ACTOR, "member.add", user.id, { email, role: "admin" }, now);
  const created = await createServiceAccountWithKey(deps, CLI_ACTOR, organization, user.id, {
    serviceAccountName: "admin",
    description: "Created by gateway init",
    role: "admin",
    name: "default",
    keyType: "live",
  });
  return { organization, user, ...created };
}

/** Adds a member (by the command line or `org.members.invite`). Sign-in is by e-mail, so e-mails are unique. */
export async function addMember(deps: ServiceDeps, actor: Actor, orgId: string, input: { email: string; role: Role }): Promise<User> {
  const email = normalizeEmail(input.email);
  if (await deps.store.getUserByEmail(email))
    throw new ApiError(409, "conflict", `a user with e-mail ${email} already exists`, { param: "email" });
  const user: User = { id: newId("usr"), orgId, email, role: input.role, createdAt: deps.now() };
  await deps.store.createUser(user);
  await recordAudit(deps.store, orgId, actor, "member.add", user.id, { email, role: input.role }, user.createdAt);
  return user;
}

/** What `org.members.invite` answers: the same whether or not the address is taken in another organization. */
export interface Invitation {
  email: string;
  role: Role;
}

/**
 * `org.members.invite`: records the invitation, whatever the address, and adds the
 * address as a member when it is free. Sign-in is by e-mail, so an address belongs to
 * one organization; one taken in another organization is not added. The answer, the
 * audit entry and the listing (`org.members.list` shows every invitation as pending
 * until its person first signs in here) are the same for a free and a taken address, so
 * an admin cannot learn which addresses other organizations hold. An invitation expires
 * 7 days after it was sent; inviting the address again then renews it (with the role
 * given now). Inviting an address again while its invitation is pending, or a member's,
 * is a 409 (those the admin can list).
 */
export async function inviteMember(
  deps: ServiceDeps,
  actor: Actor,
  orgId: string,
  input: { email: string; role: Role },
): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  const now = deps.now();
  const earlier = await deps.store.getInvitation(orgId, email);
  const unaccepted = earlier !== null && earlier.acceptedAt === null;
  if (unaccepted && invitationStatus(earlier, now) === "pending")
    throw new ApiError(
      409,
      "conflict",
      `${email} is already invited to this organization, until ${new Date(earlier.expiresAt).toISOString()}; withdraw it (org.invitation.cancel) to invite again sooner`,
      { param: "email" },
    );
  const existing = await deps.store.getUserByEmail(email);
  // An expired invitation's member (who never signed in) is renewed with it, not refused as a member.
  if (existing?.orgId === orgId && !unaccepted)
    throw new ApiError(409, "conflict", `${email} is already a member of this organization`, { param: "email" });
  if (!existing) await deps.store.createUser({ id: newId("usr"), orgId, email, role: input.role, createdAt: now });
  else if (existing.orgId === orgId && existing.role !== input.role) await deps.store.updateUserRole(existing.id, input.role);
  await deps.store.saveInvitation({ orgId, email, role: input.role, createdAt: now, expiresAt: now + INVITATION_TTL_MS, acceptedAt: null });
  const renewed = unaccepted ? { renewed: true } : {};
  await recordAudit(deps.store, orgId, actor, "member.invite", email, { email, role: input.role, ...renewed }, now);
  return { email, role: input.role };
}

/**
 * `org.invitation.cancel`: withdraws a pending or expired invitation. The invitation of a free
 * address made a member who has not signed in yet, and who is hidden from the members
 * listing until then (so an admin has no id to remove them by): that member goes with
 * it. The answer is the same whether the address was free or another organization's.
 */
export async function cancelInvitation(deps: ServiceDeps, actor: Actor, orgId: string, rawEmail: string): Promise<{ email: string }> {
  const email = normalizeEmail(rawEmail);
  const invitation = await deps.store.getInvitation(orgId, email);
  if (!invitation || invitation.acceptedAt !== null)
    throw new ApiError(404, "not_found", `no pending or expired invitation of ${email} in this organization`, { param: "email" });
  const invited = await deps.store.getUserByEmail(email);
  // Not accepted means never signed in here, so this member has no session or provider of their own.
  if (invited?.orgId === orgId) await deps.store.removeUser(invited.id);
  await deps.store.deleteInvitation(orgId, email);
  await recordAudit(deps.store, orgId, actor, "member.invite-cancel", email, { email, role: invitation.role }, deps.now());
  return { email };
}

/** `org.members.list`: members, and invitations not accepted yet (pending or expired), listed alike whatever the address. */
export async function listMembers(deps: ServiceDeps, orgId: string): Promise<{ members: User[]; invitations: MemberInvitation[] }> {
  const [users, invitations] = await Promise.all([deps.store.listUsers(orgId), deps.store.listPendingInvitations(orgId)]);
  // An invited person who has not signed in yet is listed as an invitation, like one another organization holds.
  const pending = new Set(invitations.map((i) => i.email));
  return { members: users.filter((u) => !pending.has(u.email)), invitations };
}

/** Finds the organization a command-line call means: `--org` (id or name), or the only one there is. */
export async function resolveOrganization(deps: ServiceDeps, ref: string | undefined): Promise<Organization> {
  const all = await deps.store.listOrganizations();
  if (ref) {
    const hit = all.find((o) => o.id === ref || o.name === ref);
    if (!hit) throw new ApiError(404, "not_found", `no organization with id or name "${ref}"`);
    return hit;
  }
  if (all.length === 1) return all[0] as Organization;
  throw new ApiError(
    400,
    "invalid_request",
    all.length === 0 ? "no organization yet: run `gateway init` first" : "several organizations exist: name one with --org",
  );
}
