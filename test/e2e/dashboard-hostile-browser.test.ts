/**
 * An attacker's pass over the dashboard in a real browser. Text others control (a
 * service account's and a key's name, a provider's name and models, an invited address,
 * an MCP server's URL, a notification's title, an audit row's details) is shown as text on
 * every page: no element, script or dialog comes of it. The page refuses HTML strings
 * (Trusted Types) and being framed by another site; a key shown once is kept nowhere: not
 * in storage, the title or the address, and not brought back by the Back button after
 * signing out.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type DashboardBrowser, startDashboardBrowser } from "../support/dashboard-browser.ts";

let b: DashboardBrowser;
/** Markup that runs script wherever it is taken as HTML: it sets `window.__pwned`. */
const MARKUP = `"'><img src=x onerror="window.__pwned=1">`;
/** The same without spaces or slashes, for names that allow neither (provider and model names). */
const NAME = `"'><img=x>javascript:window.__pwned=1`;
const dialogs: string[] = [];

async function asAdmin(operation: string, params: unknown) {
  const res = await fetch(`${b.base}/api/v1/gateway`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ operation, params }),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${operation}: ${res.status} ${body.error}`);
  return body.data;
}

beforeAll(async () => {
  b = await startDashboardBrowser();
  b.page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
}, 60_000);

afterAll(async () => {
  await b?.stop();
});

/** Whether anything in the page came of the markup. */
const injected = () =>
  b.page.evaluate<{ images: number; pwned: unknown }>(
    "({ images: document.querySelectorAll('img').length, pwned: window.__pwned ?? null })",
  );

test("text others control is shown as text on every page", async () => {
  const { page } = b;
  const created = await asAdmin("org.service-account.create", {
    serviceAccountName: MARKUP,
    name: MARKUP,
    keyType: "test",
    role: "member",
  });
  await asAdmin("org.api-key.revoke", { keyId: created.apiKey.id, reason: MARKUP });
  await asAdmin("provider.create", {
    provider: "openai",
    name: NAME,
    apiKey: "sk-hostile-provider-000001",
    baseUrl: `${b.mock.url}/v1`,
    models: [NAME],
  });
  await asAdmin("org.members.invite", { email: `"<img>"@acme.test`, role: "member" });
  await asAdmin("mcp.server.create", { name: "wiki", url: `${b.mock.url}/mcp?q="><img src=x onerror=alert(1)>` });
  await b.rt.store.createNotification({
    id: "ntf_hostile",
    orgId: b.orgId,
    kind: MARKUP,
    severity: "critical",
    title: MARKUP,
    body: { note: MARKUP },
    createdAt: b.rt.services.now(),
  });

  await b.signIn("admin@acme.test");
  await b.openPage("Providers");
  await page.getByRole("cell", { name: NAME, exact: true }).waitFor();
  await b.openPage("Service accounts and keys");
  await page.getByRole("heading", { level: 2, name: MARKUP }).waitFor();
  await b.openPage("Members and roles");
  await page.getByRole("cell", { name: `"<img>"@acme.test`, exact: true }).waitFor();
  await b.openPage("MCP tool servers");
  // The URL as the gateway keeps it (normalized, the markup percent-encoded), as text.
  await page.getByText("/mcp?q=%22%3E%3Cimg").waitFor();
  await b.openPage("Notifications");
  await page.getByText(MARKUP, { exact: true }).waitFor();
  await b.openPage("Audit log");
  await page.getByText(JSON.stringify(MARKUP).slice(1, -1)).first().waitFor();
  for (const link of ["Overview", "Usage and cost", "Routing playground", "Preferences"]) await b.openPage(link);
  expect(await injected()).toEqual({ images: 0, pwned: null });
  expect(dialogs).toEqual([]);
  expect(b.pageErrors).toEqual([]);
}, 90_000);

test("the page refuses HTML strings and another site's frame, and keeps no handle for another site's window", async () => {
  const { page } = b;
  await b.signIn("admin@acme.test");
  const shell = await page.goto(`${b.base}/dashboard/keys`);
  const headers = shell!.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
  expect(headers["cache-control"]).toBe("no-store");
  await page.getByRole("heading", { level: 1, name: "Service accounts and keys" }).waitFor();
  // Trusted Types with no policy: writing markup into the page throws instead of parsing it.
  const sink = await page.evaluate<string>(`(() => {
    try { document.body.insertAdjacentHTML("beforeend", ${JSON.stringify(MARKUP)}); return "parsed"; }
    catch (e) { return e.name; }
  })()`);
  expect(sink).toBe("TypeError");
  expect(await injected()).toEqual({ images: 0, pwned: null });

  // Another origin (the same host on another port) frames the dashboard: the browser shows nothing of it.
  const attacker = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(`<!doctype html><iframe src="${b.base}/dashboard/keys"></iframe>`, { headers: { "content-type": "text/html" } }),
  });
  try {
    const other = await b.context.newPage();
    await other.goto(`http://127.0.0.1:${attacker.port}/`);
    const frame = other.frames().find((f) => f !== other.mainFrame());
    await other.waitForTimeout(500);
    expect(
      await frame
        ?.locator("main")
        .count()
        .catch(() => 0),
    ).toBe(0);
    expect(
      await frame
        ?.getByText("Service accounts and keys")
        .count()
        .catch(() => 0),
    ).toBe(0);
    // A window it opens on the dashboard is cut off from it once the dashboard loads: the handle reads as closed.
    await other.evaluate(`window.__opened = window.open("${b.base}/dashboard")`);
    await other.waitForFunction("window.__opened === null || window.__opened.closed", undefined, { timeout: 10_000 });
    await other.close();
  } finally {
    attacker.stop(true);
  }
  expect(b.pageErrors).toEqual([]);
}, 60_000);

test("a key shown once is kept nowhere, and Back after signing out does not bring it back", async () => {
  const { page } = b;
  await b.signIn("admin@acme.test");
  await b.openPage("Service accounts and keys");
  await page.getByLabel("Name", { exact: true }).fill("billing-app");
  await page.getByRole("button", { name: "Create and show key" }).click();
  const shown = (await page.getByTestId("secret-value").textContent())!.trim();
  expect(shown).toMatch(/^gw_live_/);
  const kept = await page.evaluate<string>(
    "JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.title, location.href, document.cookie])",
  );
  expect(kept).not.toContain(shown);
  expect(JSON.parse(kept).slice(0, 2)).toEqual([[], []]);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
  await page.goBack();
  await page.waitForLoadState();
  expect(page.url()).toEndWith("/dashboard/keys");
  // The shell is no-store: Back loads it again (signed out), not the page as it was.
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
  expect(await page.content()).not.toContain(shown);
  expect(b.pageErrors).toEqual([]);
}, 60_000);
