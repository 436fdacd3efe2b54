/**
 * Browser sign-in without an identity provider: `gateway login-link` prints a one-time
 * URL to `/auth/link?token=...`; opening it starts a session cookie. `POST /sign-out`
 * from our own origin ends it (a GET, or a post from another site, would let any page
 * sign a user out). (OIDC at `/signup` joins these with the dashboard.)
 */
import { unauthorized } from "../../lib/errors.ts";
import { fromOwnOrigin, OriginRequired } from "../../pipeline/authenticate.ts";
import type { ServiceDeps } from "../../services/deps.ts";
import { presentedSession, SESSION_IDLE_MS, sessionCookieHeader } from "../../services/sessions.ts";
import { signInWithLink, signOut } from "../../services/sign-in.ts";
import type { RequestScope } from "../request-scope.ts";
import { userAgentOf } from "../user-agent.ts";

export interface SessionSurfaceDeps {
  services: ServiceDeps;
  /** Cookies get `Secure` when the public URL is https. */
  secureCookies: boolean;
  /** Origins sign-out is accepted from besides the request's own host (the public URL's). */
  trustedOrigins: readonly string[];
}

const sessionCookie = sessionCookieHeader;
export function loginLinkHandler(deps: SessionSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    const token = new URL(scope.request.url).searchParams.get("token") ?? "";
    const signedIn = await signInWithLink(deps.services, token, { ip: scope.ip, userAgent: userAgentOf(scope.request) });
    if (!signedIn) throw unauthorized("This sign-in link is unknown, used or expired; ask for a new one with `gateway login-link`.");
    return new Response(null, {
      status: 303,
      headers: {
        location: "/",
        "set-cookie": sessionCookie(signedIn.sessionId, SESSION_IDLE_MS / 1000, deps.secureCookies),
        "cache-control": "no-store",
      },
    });
  };
}

export function signOutHandler(deps: SessionSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    if (!fromOwnOrigin(scope.request, deps.trustedOrigins)) throw new OriginRequired();
    const value = presentedSession(scope.request.headers, deps.secureCookies);
    const actor = { ip: scope.ip, userAgent: userAgentOf(scope.request) };
    if (value) await signOut(deps.services, value, actor);
    return new Response(null, { status: 303, headers: { location: "/", "set-cookie": sessionCookie("", 0, deps.secureCookies) } });
  };
}
