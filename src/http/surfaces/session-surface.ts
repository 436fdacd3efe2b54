/**
 * Browser sign-in without an identity provider: `gateway login-link` prints a one-time
 * URL to `/auth/link?token=...`; opening it starts a session cookie. `/sign-out` ends it.
 * (OIDC at `/signup` joins these with the dashboard.)
 */
import { unauthorized } from "../../lib/errors.ts";
import { consumeLoginLink, presentedSession, signOut, SESSION_IDLE_MS, sessionCookieHeader } from "../../services/sessions.ts";
import type { Store } from "../../store/store.ts";
import type { RequestScope } from "../request-runner.ts";

export interface SessionSurfaceDeps {
  store: Store;
  /** Cookies get `Secure` when the public URL is https. */
  secureCookies: boolean;
  now: () => number;
}

const sessionCookie = sessionCookieHeader;
export function loginLinkHandler(deps: SessionSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    const token = new URL(scope.request.url).searchParams.get("token") ?? "";
    const signedIn = await consumeLoginLink(deps.store, token, deps.now());
    if (!signedIn) throw unauthorized("This sign-in link is unknown, used or expired; ask for a new one with `gateway login-link`.");
    return new Response(null, {
      status: 303,
      headers: { location: "/", "set-cookie": sessionCookie(signedIn.sessionId, SESSION_IDLE_MS / 1000, deps.secureCookies), "cache-control": "no-store" },
    });
  };
}

export function signOutHandler(deps: SessionSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    const value = presentedSession(scope.request.headers);
    const actor = { ip: scope.ip, userAgent: scope.request.headers.get("user-agent")?.slice(0, 500) ?? null };
    if (value) await signOut(deps.store, value, actor, deps.now());
    return new Response(null, { status: 303, headers: { location: "/", "set-cookie": sessionCookie("", 0, deps.secureCookies) } });
  };
}
