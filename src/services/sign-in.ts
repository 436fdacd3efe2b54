/**
 * Browser sign-in and sign-out as the HTTP surface asks for them, over the session
 * rules in sessions.ts: the surface hands over what the browser sent and never sees
 * the store.
 */
import type { Actor } from "../domain/identity.ts";
import type { User } from "../domain/types.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import { InvitationExpired } from "./invitation-expiry.ts";
import { consumeLoginLink, signOut as endAuditedSession } from "./sessions.ts";

/**
 * Uses a one-time sign-in link; the new session's id, or null when the link is unknown,
 * used or expired. A member whose invitation expired is refused (InvitationExpired),
 * audited in their organization as every refused sign-in of a known member is.
 */
export async function signInWithLink(
  deps: Pick<ServiceDeps, "store" | "now">,
  token: string,
  actor: Omit<Actor, "ref">,
): Promise<{ sessionId: string; user: User } | null> {
  try {
    return await consumeLoginLink(deps.store, token, deps.now());
  } catch (err) {
    if (err instanceof InvitationExpired)
      await recordAudit(
        deps.store,
        err.user.orgId,
        { ...actor, ref: "link" },
        "session.sign-in-failed",
        err.user.id,
        { via: "link", reason: err.message },
        deps.now(),
      );
    throw err;
  }
}

/** Ends the session the cookie names, audited (nothing happens for an unknown one). */
export function signOut(deps: Pick<ServiceDeps, "store" | "now">, sessionId: string, actor: Omit<Actor, "ref">): Promise<void> {
  return endAuditedSession(deps.store, sessionId, actor, deps.now());
}
