/**
 * How long an invitation lets its address sign in: 7 days from when it was sent, renewed
 * by inviting again. An invitation not yet accepted is pending until then and expired
 * after; an expired one starts no session (its member record stays, listed as an expired
 * invitation, until an admin renews or withdraws it).
 */
import type { MemberInvitation, User } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import type { Store } from "../store/store.ts";

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export type InvitationStatus = "pending" | "expired";

export const invitationStatus = (invitation: MemberInvitation, now: number): InvitationStatus =>
  now >= invitation.expiresAt ? "expired" : "pending";

/** The refusal's words; 403, no session. Carries the member, whose organization audits the refusal. */
export class InvitationExpired extends ApiError {
  constructor(
    readonly user: User,
    expiresAt: number,
  ) {
    super(
      403,
      "forbidden",
      `The invitation of ${user.email} expired on ${new Date(expiresAt).toISOString().slice(0, 10)} (an invitation lasts 7 days, until its first sign-in). Ask an organization admin to invite you again.`,
    );
  }
}

/** Throws InvitationExpired when `user` was invited, never signed in, and the invitation ran out. */
export async function refuseExpiredInvitation(store: Store, user: User, now: number): Promise<void> {
  const invitation = await store.getInvitation(user.orgId, user.email);
  if (invitation && invitation.acceptedAt === null && invitationStatus(invitation, now) === "expired")
    throw new InvitationExpired(user, invitation.expiresAt);
}
