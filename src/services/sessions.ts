/**
 * Dashboard sessions and one-time sign-in links. Cookie values and link tokens are
 * 32 random bytes; only their SHA-256 is stored (they carry full entropy, so a plain
 * hash is enough to make a leaked table useless).
 */
import type { Organization, User } from "../domain/types.ts";
import type { Store } from "../store/store.ts";
import type { Actor, Identity } from "../domain/identity.ts";
import { recordAudit } from "./audit.ts";
import { cookieValue } from "../lib/cookies.ts";
import { refuseExpiredInvitation } from "./invitation-expiry.ts";

export const SESSION_COOKIE = "gw_session";
/** On https the cookie carries the `__Host-` prefix: the browser then insists on Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE = "__Host-gw_session";
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
export const LOGIN_LINK_TTL_MS = 10 * 60 * 1000;
/** lastSeenAt is written at most this often, so browsing does not write on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

const randomToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
const sha256 = (value: string) => new Bun.CryptoHasher("sha256").update(value).digest("hex");

export const sessionCookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** The Set-Cookie value for a session (an empty value with max age 0 clears it). */
export function sessionCookieHeader(value: string, maxAgeS: number, secure: boolean): string {
  return `${sessionCookieName(secure)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure ? "; Secure" : ""}`;
}

/**
 * The session id a request carries, under the one name this gateway sets: on https only
 * `__Host-gw_session`, which the browser sends only as set (Secure, Path=/, no Domain),
 * so a cookie planted without the prefix (by a sibling subdomain, or over plain http)
 * is not taken for a session.
 */
export function presentedSession(headers: Headers, secure: boolean): string | null {
  return cookieValue(headers, sessionCookieName(secure));
}

/** A one-time link; none for a member whose invitation expired unused (InvitationExpired): it could only lead to the same 403. */
export async function createLoginLink(store: Store, user: User, now: number): Promise<{ token: string; expiresAt: number }> {
  await refuseExpiredInvitation(store, user, now);
  const token = randomToken();
  const expiresAt = now + LOGIN_LINK_TTL_MS;
  await store.createLoginLink({ tokenHash: sha256(token), userId: user.id, expiresAt, usedAt: null });
  return { token, expiresAt };
}

/** Exchanges a sign-in link for a new session; null when the link is unknown, used or expired (InvitationExpired: see startSession). */
export async function consumeLoginLink(store: Store, token: string, now: number): Promise<{ sessionId: string; user: User } | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const link = await store.consumeLoginLink(sha256(token), now);
  if (!link) return null;
  const user = await store.getUser(link.userId);
  if (!user) return null;
  return { sessionId: await startSession(store, user, now), user };
}

/** Every sign-in ends here: a member whose invitation expired unused gets InvitationExpired (403) instead. */
export async function startSession(store: Store, user: User, now: number): Promise<string> {
  await refuseExpiredInvitation(store, user, now);
  const sessionId = randomToken();
  await store.createSession({ idHash: sha256(sessionId), userId: user.id, createdAt: now, lastSeenAt: now });
  // Signed in here: an invitation to this organization turns into membership in its listing.
  await store.acceptInvitation(user.orgId, user.email, now);
  return sessionId;
}

export async function endSession(store: Store, sessionId: string): Promise<void> {
  await store.deleteSession(sha256(sessionId));
}

/** `/sign-out`: ends the session on the server and audits it in the user's organization. */
export async function signOut(store: Store, sessionId: string, actor: Omit<Actor, "ref">, now: number): Promise<void> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(sessionId)) return;
  const session = await store.getSession(sha256(sessionId));
  await endSession(store, sessionId);
  const user = session ? await store.getUser(session.userId) : null;
  if (user) await recordAudit(store, user.orgId, { ...actor, ref: `user:${user.id}` }, "session.sign-out", user.id, {}, now);
}

/** Ends every session of a user (sign out everywhere); returns how many ended. */
export async function endUserSessions(store: Store, userId: string): Promise<number> {
  return store.deleteUserSessions(userId);
}

/** The user identity behind a session cookie, or null when it is unknown or idle for 24 hours. */
export async function authenticateSession(store: Store, sessionId: string, now: number): Promise<Identity | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(sessionId)) return null;
  return sessionIdentity(store, sha256(sessionId), now);
}

/** The user identity behind a stored session (by the hash the store keeps), under the same idle rule. */
export async function sessionIdentity(store: Store, idHash: string, now: number): Promise<Identity | null> {
  const session = await store.getSession(idHash);
  if (!session) return null;
  if (now - session.lastSeenAt > SESSION_IDLE_MS) {
    await store.deleteSession(idHash);
    return null;
  }
  const user = await store.getUser(session.userId);
  const organization: Organization | null = user ? await store.getOrganization(user.orgId) : null;
  if (!user || !organization) return null;
  if (now - session.lastSeenAt > TOUCH_EVERY_MS) await store.touchSession(idHash, now);
  return { kind: "user", id: user.id, role: user.role, organization, user, sessionIdHash: idHash };
}
