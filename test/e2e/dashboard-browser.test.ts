/**
 * The dashboard in a real browser (Debian's chromium through playwright-core): sign in
 * through the in-process identity provider, add a provider, create a service account and
 * copy its key, call with it through the official openai client, see the call (and the
 * share of its prompt the provider's cache served) on the usage page, revoke the key (next
 * call 401), sign out (the old cookie is refused).
 * Screenshots of each page go to test/artifacts/dashboard/ (ignored by git).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import type { BrowserContext, Page } from "playwright-core";
import type { Runtime } from "../../src/runtime.ts";
import { type DashboardBrowser, startDashboardBrowser } from "../support/dashboard-browser.ts";
import type { RunningMock } from "../support/gateway-process.ts";
import type { TestIdp } from "../support/oidc-idp.ts";

let browser: DashboardBrowser;
let idp: TestIdp;
let mock: RunningMock;
let rt: Runtime;
let base: string;
let context: BrowserContext;
let page: Page;
let orgId: string;
/** Exceptions the page threw, and errors its render guards reported: none is expected. */
let pageErrors: string[];

beforeAll(async () => {
  browser = await startDashboardBrowser();
  ({ idp, mock, rt, base, context, page, orgId, pageErrors } = browser);
}, 60_000);

afterAll(async () => {
  await browser?.stop();
});

const shot = (name: string) => browser.shot(name);
const openPage = (link: string) => browser.openPage(link);

test("sign in, add a provider, create and use a key, see it in usage, revoke it, sign out", async () => {
  // Signed out: the dashboard offers the sign-in, which goes through the identity provider.
  idp.signInAs("admin@acme.test");
  await page.goto(`${base}/`);
  await page.getByRole("link", { name: "Sign in with your identity provider" }).click();
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  expect(page.url()).toBe(`${base}/dashboard`);
  await page.getByText("admin@acme.test (admin)").waitFor();
  await shot("overview");

  // A provider key, added once: afterwards only its hint shows.
  await openPage("Providers");
  await page.getByRole("button", { name: "Add a provider" }).click();
  await page.getByLabel("Kind").fill("openai");
  await page.getByLabel("API key").fill("sk-provider-secret-123456");
  await page.getByLabel("Base URL (optional)").fill(`${mock.url}/v1`);
  await page.getByRole("button", { name: "Add provider" }).click();
  await page.getByText("sk-...3456").waitFor();
  expect(await page.content()).not.toContain("sk-provider-secret-123456");
  await page.getByRole("button", { name: "Test connection" }).click();
  await page.getByText("reachable", { exact: true }).waitFor();
  await shot("providers");

  // An MCP tool server with a credential header: afterwards only the header's name shows.
  await openPage("MCP tool servers");
  await page.getByRole("button", { name: "Add an MCP server" }).click();
  await page.getByLabel("Name (the tool prefix)").fill("wiki");
  await page.getByLabel("URL").fill(`${mock.url}/mcp`);
  await page.getByLabel("Credential header (optional)").fill("Authorization");
  await page.getByLabel("Header value").fill("Bearer mcp-upstream-secret-9876");
  await page.getByRole("button", { name: "Add server" }).click();
  await page.getByText("headers: Authorization").waitFor();
  expect(await page.content()).not.toContain("mcp-upstream-secret-9876");
  await shot("mcp");

  // A service account; its key is shown once and copied with the button.
  await openPage("Service accounts and keys");
  await page.getByLabel("Name", { exact: true }).fill("billing-app");
  await page.getByRole("button", { name: "Create and show key" }).click();
  const shown = (await page.getByTestId("secret-value").textContent())!.trim();
  expect(shown).toMatch(/^gw_live_[A-Za-z0-9]{40}$/);
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  await page.getByRole("button", { name: "Copied" }).waitFor();
  const copied = await page.evaluate<string>("navigator.clipboard.readText()");
  expect(copied).toBe(shown);
  await shot("service-accounts");
  await page.getByRole("button", { name: "I have stored it" }).click();
  expect(await page.content()).not.toContain(shown);

  // The key works through the official client; the mock reports 40 prompt tokens from its prompt cache.
  const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: copied, maxRetries: 0 });
  const answer = await client.chat.completions.create({
    model: "gpt-4o",
    user: "cache-r40-w0",
    messages: [{ role: "user", content: "Say hello" }],
  });
  expect(answer.choices[0]?.message.content).toBeTruthy();
  const promptTokens = answer.usage?.prompt_tokens ?? 0;
  expect(answer.usage?.prompt_tokens_details?.cached_tokens).toBe(40);

  // The call shows on the usage page once the write-behind flush has run.
  await rt.usage.flush();
  await openPage("Usage and cost");
  await page.getByTestId("usage-calls").waitFor();
  expect(await page.getByTestId("usage-calls").textContent()).toBe("1");
  // The provider's row shows the share of the prompt its cache served.
  const openaiRow = page.getByTestId("usage-providers").getByRole("row").filter({ hasText: "openai" });
  expect(await openaiRow.getByRole("cell").nth(3).textContent()).toBe(`${((40 / promptTokens) * 100).toFixed(1)}%`);
  const keyRow = page
    .getByTestId("usage-keys")
    .getByRole("row")
    .filter({ hasText: copied.slice(0, 12) });
  // The per-key table and the forecast load on their own, after the daily figures. (A
  // forecast of another shape than the page expected once threw while rendering and froze
  // the page on "Loading keys…" whenever it arrived first: about one run in three.)
  const shownText = () =>
    page
      .locator("main")
      .innerText()
      .catch(() => "(no main element)");
  await Promise.all([keyRow.first().waitFor(), page.getByText("Forecast, next 30 days:").waitFor()]).catch(async (err) => {
    throw new Error(`the usage page did not finish loading; it showed:\n${await shownText()}\n${pageErrors.join("\n")}\n${err}`);
  });
  expect(pageErrors).toEqual([]);
  expect(await keyRow.count()).toBe(1);
  expect(await keyRow.getByRole("cell").nth(2).textContent()).toBe("1");
  await shot("usage");
  await openPage("Overview");
  await page.getByText("Calls, 30 days").waitFor();
  await page.getByText("Security scan, 30 days").waitFor();
  await shot("overview-with-usage");

  // Revoked with a reason: the next call is refused.
  await openPage("Service accounts and keys");
  const account = page.getByRole("region", { name: "Service account billing-app" });
  await account.getByRole("button", { name: "Revoke" }).click();
  await account.getByLabel("Reason").fill("rotating after the demo");
  await account.getByRole("button", { name: "Revoke now" }).click();
  await account.getByText("No active key.").waitFor();
  const refused = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "again" }] }).catch((e) => e);
  expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);

  for (const [name, link] of [
    ["routing", "Routing playground"],
    ["notifications", "Notifications"],
    ["audit", "Audit log"],
    ["members", "Members and roles"],
    ["preferences", "Preferences"],
  ] as const) {
    await openPage(link);
    // Every section loaded (a page may show several "Loading …" lines at once, e.g. members and sessions).
    const loading = page.getByRole("status");
    while ((await loading.count()) > 0) await loading.first().waitFor({ state: "detached" });
    await shot(name);
  }
  // The context optimizer, turned on from the keyboard (Tab from the field before it, then
  // Space), is saved for the organization and shown as saved when the page opens again.
  const optimizer = page.getByLabel("Optimize the context of model calls");
  expect(await optimizer.isChecked()).toBe(false);
  await page.getByLabel("E-mail domains that may join at first sign-in").focus();
  await page.keyboard.press("Tab");
  expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('name')")).toBe("contextOptimizer");
  await page.keyboard.press("Space");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Saved.").waitFor();
  expect((await rt.services.store.getOrgPreferences(orgId)).contextOptimizer).toBe(true);
  await openPage("Overview");
  await openPage("Preferences");
  expect(await optimizer.isChecked()).toBe(true);
  await shot("preferences-optimizer");
  // The first alert webhook URL comes with its signing secret, shown once on this page.
  await page.getByLabel("Alert webhook URL").fill("https://hooks.example.com/gateway");
  await page.getByRole("button", { name: "Save" }).click();
  const secret = await page.getByTestId("secret-value").textContent();
  expect(secret).toStartWith("whsec_");
  await shot("preferences-webhook-secret");
  await page.getByRole("button", { name: "I have stored it" }).click();
  await openPage("Overview");
  await openPage("Preferences");
  expect(await page.getByTestId("secret-value").count()).toBe(0);

  // Phone width: the navigation folds behind the Menu button.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Menu" }).click();
  await openPage("Overview");
  await shot("overview-phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Signing out ends the session on the server: the old cookie no longer reaches the API.
  const cookie = (await context.cookies(base)).find((c) => c.name === "gw_session")!;
  expect(cookie.httpOnly).toBe(true);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
  const after = await fetch(`${base}/api/v1/gateway`, {
    method: "POST",
    headers: { cookie: `gw_session=${cookie.value}`, origin: base, "content-type": "application/json" },
    body: JSON.stringify({ operation: "user.me" }),
  });
  expect(after.status).toBe(401);
  expect(pageErrors).toEqual([]);
}, 120_000);
