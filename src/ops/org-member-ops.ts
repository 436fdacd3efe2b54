/** `org.*` operations on members, their invitations and the audit log (admin only). */
import { Type } from "@sinclair/typebox";
import { checkAuditLogAllowed } from "../policy/tiers.ts";
import { cancelInvitation, inviteMember as invite, listMembers as membersAndInvitations } from "../services/organizations.ts";
import { invitationStatus } from "../services/invitation-expiry.ts";
import { iso, presentAudit, presentUser } from "./present.ts";
import { defineOperation } from "./registry.ts";

export const listMembers = defineOperation({
  id: "org.members.list",
  access: "admin-read",
  summary:
    "The organization's members, and the invitations not accepted yet: pending until the invited person first signs in, expired 7 days after they were sent.",
  params: Type.Object({}),
  async run({ identity, deps }) {
    const { members, invitations } = await membersAndInvitations(deps, identity.organization.id);
    const now = deps.now();
    return {
      members: members.map(presentUser),
      invitations: invitations.map((i) => ({
        email: i.email,
        role: i.role,
        invitedAt: iso(i.createdAt),
        expiresAt: iso(i.expiresAt),
        status: invitationStatus(i, now),
      })),
    };
  },
});

export const inviteMember = defineOperation({
  id: "org.members.invite",
  access: "admin",
  summary:
    "Invites a member by e-mail for 7 days; a free address becomes a member who can sign in until then. Inviting an expired invitation again renews it. The answer never tells whether another organization holds the address.",
  params: Type.Object({
    email: Type.String({ minLength: 3, maxLength: 254 }),
    role: Type.Optional(Type.Union([Type.Literal("admin"), Type.Literal("member")])),
  }),
  async run({ identity, actor, deps }, p) {
    const invitation = await invite(deps, actor, identity.organization.id, { email: p.email, role: p.role ?? "member" });
    return {
      invitation,
      next: "org.members.list shows the invitation as pending until the person signs in (by e-mail: gateway login-link or the identity provider), for 7 days.",
    };
  },
});

export const cancelInvitationOp = defineOperation({
  id: "org.invitation.cancel",
  access: "admin",
  summary:
    "Withdraws a pending or expired invitation; the invited person, who has not signed in yet, can no longer sign in here. The answer is the same whatever the address.",
  params: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) }),
  async run({ identity, actor, deps }, p) {
    const { email } = await cancelInvitation(deps, actor, identity.organization.id, p.email);
    return { email, cancelled: true };
  },
});

export const listAuditLog = defineOperation({
  id: "org.audit-log.list",
  access: "admin-read",
  summary: "Audit entries, newest first; pass `nextBefore` back as `before` for the next page.",
  params: Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }),
  async run({ identity, deps }, p) {
    checkAuditLogAllowed(identity.organization.tier);
    const page = await deps.store.listAudit(identity.organization.id, { limit: p.limit ?? 50, before: p.before ?? null });
    return { entries: page.entries.map(presentAudit), nextBefore: page.nextBefore };
  },
});

export const orgMemberOperations = [listMembers, inviteMember, cancelInvitationOp, listAuditLog];
