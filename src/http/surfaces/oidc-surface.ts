/**
 * `/signup` and `/signup/callback`: dashboard sign-in through the identity provider at
 * GW_OIDC_ISSUER. The first sends the browser to the provider with a sealed cookie of the
 * attempt's secrets; the second verifies the answer, maps the e-mail to a member and
 * starts a session. Failures are pages in words (the user is a person with a browser).
 */
import type { Actor } from "../../domain/identity.ts";
import { cookieValue } from "../../lib/cookies.ts";
import { toApiError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/log.ts";
import { recordAudit } from "../../services/audit.ts";
import type { ServiceDeps } from "../../services/deps.ts";
import { memberForSignIn } from "../../services/oidc-members.ts";
import { type OidcSignIn, SIGN_IN_TTL_MS } from "../../services/oidc-signin.ts";
import { SESSION_IDLE_MS, sessionCookieHeader, startSession } from "../../services/sessions.ts";
import type { RequestScope } from "../request-scope.ts";
import { htmlPage } from "./html-page.ts";
import { userAgentOf } from "../user-agent.ts";

export interface OidcSurfaceDeps {
  /** Null when no identity provider is configured. */
  signIn: OidcSignIn | null;
  services: ServiceDeps;
  /** The public URL (GW_PUBLIC_URL) when set; otherwise the request's own origin. */
  publicUrl: string | null;
  secureCookies: boolean;
  log: Logger;
}

const FLOW_COOKIE = "gw_oidc";
const flowCookieName = (secure: boolean) => (secure ? `__Host-${FLOW_COOKIE}` : FLOW_COOKIE);
// SameSite=Lax: the provider's redirect back is a top-level GET, which Lax cookies ride along.
const flowCookie = (value: string, maxAgeS: number, secure: boolean) =>
  `${flowCookieName(secure)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure ? "; Secure" : ""}`;

function baseUrl(deps: OidcSurfaceDeps, request: Request): string {
  return (deps.publicUrl ?? new URL(request.url).origin).replace(/\/+$/, "");
}

const notConfigured = () =>
  htmlPage(
    404,
    "Sign-in is not configured",
    "This gateway has no identity provider (GW_OIDC_ISSUER, GW_OIDC_CLIENT_ID, GW_OIDC_CLIENT_SECRET). An operator can give you a one-time sign-in link with `gateway login-link`.",
  );

export function signUpHandler(deps: OidcSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    if (!deps.signIn) return notConfigured();
    let started: { url: string; sealed: string };
    try {
      started = await deps.signIn.start(`${baseUrl(deps, scope.request)}/signup/callback`);
    } catch (err) {
      const failure = toApiError(err);
      return htmlPage(failure.status, "The identity provider is unavailable", failure.message, { retry: true });
    }
    return new Response(null, {
      status: 302,
      headers: {
        location: started.url,
        "set-cookie": flowCookie(started.sealed, SIGN_IN_TTL_MS / 1000, deps.secureCookies),
        "cache-control": "no-store",
      },
    });
  };
}

export function signUpCallbackHandler(deps: OidcSurfaceDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    if (!deps.signIn) return notConfigured();
    const { services } = deps;
    const request = scope.request;
    const clearFlow = flowCookie("", 0, deps.secureCookies);
    const actor: Omit<Actor, "ref"> = { ip: scope.ip, userAgent: userAgentOf(request) };
    const callback = new URL(`${baseUrl(deps, request)}/signup/callback${new URL(request.url).search}`);
    let email: string | null = null;
    try {
      const verified = await deps.signIn.finish(callback, cookieValue(request.headers, flowCookieName(deps.secureCookies)));
      email = verified.email;
      const user = await memberForSignIn(services, verified, actor);
      const sessionId = await startSession(services.store, user, services.now());
      await recordAudit(
        services.store,
        user.orgId,
        { ...actor, ref: `user:${user.id}` },
        "session.sign-in",
        user.id,
        { via: "oidc" },
        services.now(),
      );
      const headers = new Headers({ location: "/dashboard", "cache-control": "no-store" });
      headers.append("set-cookie", clearFlow);
      headers.append("set-cookie", sessionCookieHeader(sessionId, SESSION_IDLE_MS / 1000, deps.secureCookies));
      return new Response(null, { status: 303, headers });
    } catch (err) {
      const failure = toApiError(err);
      await auditFailure(deps, email, actor, failure.message);
      const page = htmlPage(failure.status, failure.status === 403 ? "Not a member" : "Sign-in failed", failure.message, {
        retry: failure.status !== 403,
      });
      page.headers.append("set-cookie", clearFlow);
      return page;
    }
  };
}

/** A failed sign-in is audited in the organization of the address it named, if any; always logged. */
async function auditFailure(deps: OidcSurfaceDeps, email: string | null, actor: Omit<Actor, "ref">, reason: string): Promise<void> {
  deps.log.warn("sign-in failed", { email, ip: actor.ip, reason });
  const user = email ? await deps.services.store.getUserByEmail(email) : null;
  if (user)
    await recordAudit(
      deps.services.store,
      user.orgId,
      { ...actor, ref: "oidc" },
      "session.sign-in-failed",
      user.id,
      { via: "oidc", reason },
      deps.services.now(),
    );
}
