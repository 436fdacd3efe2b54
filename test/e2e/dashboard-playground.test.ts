/**
 * The dashboard on a gateway without an identity provider, in a real browser (Debian's
 * chromium): the sign-in page offers only what works there (how to get a login link,
 * no identity-provider button that would 404), and the routing playground shows each
 * strategy's decision as a table with its reasoning wrapped, not raw JSON.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { type InitializedOrganization, initializeOrganization } from "../../src/services/organizations.ts";
import { createLoginLink } from "../../src/services/sessions.ts";
import { type Chromium, launchChromium } from "../support/chromium.ts";
import { removeDir } from "../support/gateway-process.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { freePort } from "../support/servers.ts";

setDefaultTimeout(90_000);

const mock = mockPerFile();
let rt: Runtime;
let stopServer: () => Promise<void>;
let base: string;
let dataDir: string;
let org: InitializedOrganization;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), "gw-playground-"));
  rt = await createRuntime(
    loadConfig({ data: dataDir, port: String(port) }, { GW_LOG_LEVEL: "silent", GW_ALLOW_PRIVATE_EGRESS: "1" }),
    createLogger("silent"),
  );
  org = await initializeOrganization(rt.services, { name: "Acme", adminEmail: "admin@acme.test", tier: "enterprise" });
  const app = createApp(rt).listen({ hostname: "127.0.0.1", port });
  stopServer = async () => void (await app.stop());
  const added = await fetch(`${base}/api/v1/gateway`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.keyValue}`, "content-type": "application/json" },
    body: JSON.stringify({
      operation: "provider.create",
      params: { provider: "openai", name: "mock-openai", apiKey: "mock-key-123456", baseUrl: `${mock.url}/v1`, scope: "organization" },
    }),
  });
  expect(added.status).toBe(200);
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  await stopServer?.();
  await rt?.shutdown();
  if (dataDir) removeDir(dataDir);
});

test("without an identity provider the sign-in page says how to get a login link, and offers no identity provider", async () => {
  await page.goto(`${base}/dashboard`);
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
  expect(await page.getByRole("link", { name: /identity provider/i }).count()).toBe(0);
  expect(await page.locator("pre.command").textContent()).toBe("./gateway login-link --email you@example.com");

  // The link such a command prints signs this browser in.
  const { token } = await createLoginLink(rt.services.store, org.user, rt.services.now());
  await page.goto(`${base}/auth/link?token=${token}`);
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  expect(pageErrors).toEqual([]);
});

test("the routing playground shows each strategy's decision as a table, its reasoning wrapped", async () => {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Routing playground" }).click();
  await page.getByLabel("Prompt").fill("Summarize the plot of Hamlet in two sentences.");
  await page.getByRole("button", { name: "Route with each strategy" }).click();
  const table = page.getByTestId("route-decisions");
  await table.waitFor();

  const headers = await table.locator("thead th").allTextContents();
  expect(headers).toEqual(["Strategy", "Choice", "Quality score", "Cost", "Latency", "Saved", "Reasoning"]);
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? "")));
  expect(rows.map((r) => r[0])).toEqual(["cost", "speed", "quality", "balanced"]);
  for (const [, choice, quality, cost, latency, saved, reasoning] of rows) {
    expect(choice).toContain("mock-openai");
    expect(Number(quality)).toBeGreaterThan(0);
    expect(cost).toMatch(/^\$\d/);
    expect(latency).toMatch(/^\d+ ms$/);
    expect(saved).toMatch(/^\$\d/);
    expect(reasoning!.length).toBeGreaterThan(20);
  }
  // No raw JSON, and the reasoning wraps inside the page instead of widening the table.
  expect(await page.getByText('"selectedProvider"').count()).toBe(0);
  const fits = await table.evaluate((t) => ({
    wrapped: t.ownerDocument.defaultView!.getComputedStyle(t.querySelector("td.reasoning")!).whiteSpace,
    tableWidth: t.scrollWidth,
    room: t.parentElement!.clientWidth,
  }));
  expect(fits.wrapped).toBe("normal");
  expect(fits.tableWidth).toBeLessThanOrEqual(fits.room);

  // The runners-up of a strategy open below the table.
  await page.getByText(/^Runners-up for cost/).click();
  expect(await page.locator("details[open] tbody tr").count()).toBeGreaterThan(0);
  expect(pageErrors).toEqual([]);
});
