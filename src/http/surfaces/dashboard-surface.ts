/**
 * The dashboard: one HTML shell at /dashboard and each of its pages, and the bundled app
 * and stylesheet, all carried inside the executable (see dashboard-bundle.ts) under a CSP
 * that allows only this origin. `/dashboard/keepalive` renews the session cookie of an
 * active user, so 24 hours count from the last use, not from sign-in.
 */
import { authenticateSession, presentedSession, SESSION_IDLE_MS, sessionCookieHeader } from "../../services/sessions.ts";
import type { ServiceDeps } from "../../services/deps.ts";
import type { DashboardBundle } from "./dashboard-bundle.ts";
import { PAGE_HEADERS } from "./html-page.ts";
import type { RequestScope } from "../request-scope.ts";

let bundle: Promise<DashboardBundle> | null = null;
const loadBundle = () => (bundle ??= import("./dashboard-assets.ts").then((m) => m.BUNDLE));

/** The page paths the app routes itself (web/src/pages.ts); the shell is served at each. */
export const DASHBOARD_PAGES = ["", "providers", "keys", "usage", "routing", "mcp", "notifications", "audit", "members", "preferences"];

/** The shell, with what its sign-in page may offer: the identity provider only when one is configured. */
const shell = (signIn: "identity-provider" | "login-link") => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dashboard · gateway</title><link rel="stylesheet" href="/dashboard/assets/app.css">
<script type="module" src="/dashboard/assets/app.js"></script></head>
<body><div id="app" data-sign-in="${signIn}"><p class="muted">Loading the dashboard…</p></div><noscript>The dashboard needs JavaScript.</noscript></body></html>`;

export interface DashboardDeps {
  services: Pick<ServiceDeps, "store" | "now">;
  secureCookies: boolean;
}

const asset = (pick: (b: DashboardBundle) => string, type: string) => async () =>
  new Response(pick(await loadBundle()), { headers: { ...PAGE_HEADERS, "content-type": type, "cache-control": "no-cache" } });

export const dashboardScriptHandler = () => asset((b) => b.js, "text/javascript; charset=utf-8");
export const dashboardStyleHandler = () => asset((b) => b.css, "text/css; charset=utf-8");

export function dashboardShellHandler(opts: { identityProvider: boolean }) {
  const html = shell(opts.identityProvider ? "identity-provider" : "login-link");
  return () =>
    new Response(html, { headers: { ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

export function keepaliveHandler(deps: DashboardDeps) {
  return async (scope: RequestScope): Promise<Response> => {
    const value = presentedSession(scope.request.headers, deps.secureCookies);
    const identity = value ? await authenticateSession(deps.services.store, value, deps.services.now()) : null;
    if (!value || !identity) return new Response(null, { status: 401, headers: { "cache-control": "no-store" } });
    return new Response(null, {
      status: 204,
      headers: { "set-cookie": sessionCookieHeader(value, SESSION_IDLE_MS / 1000, deps.secureCookies), "cache-control": "no-store" },
    });
  };
}

/** `/`: browsers go to the dashboard; API clients get the service's name and version. */
export function rootHandler(about: () => Response) {
  return (scope: RequestScope): Response => {
    const accept = scope.request.headers.get("accept") ?? "";
    if (accept.includes("text/html")) return new Response(null, { status: 302, headers: { location: "/dashboard" } });
    return about();
  };
}
