/** `user.sessions.*`: a signed-in user's own dashboard sessions, and signing out everywhere (admins may do it for a member). */
import { Type } from "@sinclair/typebox";
import type { Identity } from "../domain/identity.ts";
import { ApiError } from "../lib/errors.ts";
import { recordAudit } from "../services/audit.ts";
import { endUserSessions } from "../services/sessions.ts";
import { iso } from "./present.ts";
import { defineOperation } from "./registry.ts";

function sessionUser(identity: Identity) {
  if (identity.kind !== "user")
    throw new ApiError(400, "invalid_request", "Service accounts have no dashboard sessions; this operation is for signed-in members.");
  return identity;
}

export const listSessions = defineOperation({
  id: "user.sessions.list",
  access: "read",
  summary: "The caller's dashboard sessions (never their ids): when each started and was last used, and which is this one.",
  params: Type.Object({}),
  async run({ identity, deps }) {
    const me = sessionUser(identity);
    const sessions = await deps.store.listUserSessions(me.id);
    // An opaque handle: a prefix of the id's hash, enough to tell sessions apart, useless as a credential.
    return {
      sessions: sessions.map((s) => ({
        handle: s.idHash.slice(0, 12),
        createdAt: iso(s.createdAt),
        lastSeenAt: iso(s.lastSeenAt),
        current: s.idHash === me.sessionIdHash,
      })),
    };
  },
});

export const signOutEverywhere = defineOperation({
  id: "user.sessions.end-all",
  access: { param: "userId", absent: "member-write", present: "admin" },
  summary: "Ends every dashboard session of the caller, or with `userId` (admins only) of a member of the organization.",
  params: Type.Object({ userId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }),
  async run({ identity, actor, deps }, p) {
    const orgId = identity.organization.id;
    let userId: string;
    if (p.userId === undefined) userId = sessionUser(identity).id;
    else {
      // Another member's sessions: the declared access made this an admin call.
      const user = await deps.store.getUser(p.userId);
      if (!user || user.orgId !== orgId)
        throw new ApiError(404, "not_found", `no member ${p.userId} in this organization`, { param: "userId" });
      userId = user.id;
    }
    const ended = await endUserSessions(deps.store, userId);
    await recordAudit(deps.store, orgId, actor, "session.sign-out-everywhere", userId, { ended }, deps.now());
    return { userId, sessionsEnded: ended };
  },
});

export const sessionOperations = [listSessions, signOutEverywhere];
