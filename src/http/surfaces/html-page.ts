/**
 * Small server-rendered pages for people in a browser (sign-in outcomes), under the same
 * strict Content-Security-Policy as the dashboard: nothing but the gateway's own assets.
 */

/**
 * No scripts, styles or frames from anywhere but this origin; no inline script. Trusted
 * Types with no policy: the browser refuses every HTML string written into the page
 * (`innerHTML`, `insertAdjacentHTML`, ...), so text from others can only ever be text, even
 * if a later change reaches for such a sink (the app has none; Preact writes text nodes).
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; require-trusted-types-for 'script'; trusted-types 'none'";

/** The headers every dashboard page and asset carries. */
export const PAGE_HEADERS: Record<string, string> = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  // A window another site opened (or that opened this one) keeps no handle to it.
  "cross-origin-opener-policy": "same-origin",
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function htmlPage(status: number, title: string, message: string, opts: { retry?: boolean } = {}): Response {
  const retry = opts.retry ? `<p><a href="/signup">Try signing in again</a></p>` : "";
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · gateway</title><link rel="stylesheet" href="/dashboard/assets/app.css"></head>
<body><main class="notice"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${retry}</main></body></html>`;
  return new Response(body, {
    status,
    headers: { ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
