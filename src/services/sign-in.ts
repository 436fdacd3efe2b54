/**
 * Browser sign-in and sign-out as the HTTP surface asks for them, over the session
 * rules in sessions.ts: the surface hands over what the browser sent and never sees
 * the store.
 */
import type { User } from "../domain/types.ts";
import type { ServiceDeps } from "./deps.ts";
import { consumeLoginLink, endSession } from "./sessions.ts";

/** Uses a one-time sign-in link; the new session's id, or null when the link is unknown, used or expired. */
export function signInWithLink(deps: Pick<ServiceDeps, "store" | "now">, token: string): Promise<{ sessionId: string; user: User } | null> {
  return consumeLoginLink(deps.store, token, deps.now());
}

/** Ends the session the cookie names (nothing happens for an unknown one). */
export function signOut(deps: Pick<ServiceDeps, "store">, sessionId: string): Promise<void> {
  return endSession(deps.store, sessionId);
}
