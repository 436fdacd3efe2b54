/**
 * The dashboard in a real browser for a test file: the in-process identity provider, the
 * mock provider, the gateway in process with one organization (admin@acme.test), and
 * Debian's chromium (./chromium.ts). Exceptions the page throws and errors its render
 * guards report are collected in `pageErrors`.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { launchChromium } from "./chromium.ts";
import { removeDir, type RunningMock, ROOT, startMockProvider } from "./gateway-process.ts";
import { startTestIdp, type TestIdp } from "./oidc-idp.ts";
import { freePort } from "./servers.ts";

const ARTIFACTS = join(ROOT, "test", "artifacts", "dashboard");

export interface DashboardBrowser {
  base: string;
  idp: TestIdp;
  mock: RunningMock;
  rt: Runtime;
  orgId: string;
  /** The admin service account's key (`gateway init`'s), for reading through the API what the page saved. */
  adminKey: string;
  context: BrowserContext;
  page: Page;
  /** None is expected: a test ends with `expect(pageErrors).toEqual([])`. */
  pageErrors: string[];
  /** Follows the navigation link named `link` and waits for the page's heading. */
  openPage(link: string): Promise<void>;
  /** A full-page screenshot in test/artifacts/dashboard/ (ignored by git). */
  shot(name: string): Promise<unknown>;
  /** Signs `email` in through the identity provider, onto the overview (whoever was signed in before: the cookies are cleared first). */
  signIn(email: string): Promise<void>;
  stop(): Promise<void>;
}

/** `env`: gateway settings beyond the ones every browser test needs. */
export async function startDashboardBrowser(env: Record<string, string> = {}): Promise<DashboardBrowser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const idp = await startTestIdp([`${base}/signup/callback`]);
  const mock = await startMockProvider();
  const dataDir = mkdtempSync(join(tmpdir(), "gw-browser-"));
  const config = loadConfig(
    { data: dataDir, port: String(port) },
    {
      GW_OIDC_ISSUER: idp.issuer,
      GW_OIDC_CLIENT_ID: idp.clientId,
      GW_OIDC_CLIENT_SECRET: idp.clientSecret,
      GW_LOG_LEVEL: "silent",
      GW_FLUSH_INTERVAL_MS: "50",
      // The mock provider is on loopback: the operator setting the gateway's own tests use.
      GW_ALLOW_PRIVATE_PROVIDERS: "1",
      ...env,
    },
  );
  const rt = await createRuntime(config, createLogger("silent"));
  const {
    organization: { id: orgId },
    keyValue: adminKey,
  } = await initializeOrganization(rt.services, { name: "Acme", adminEmail: "admin@acme.test", tier: "enterprise" });
  const app = createApp(rt).listen({ hostname: "127.0.0.1", port });
  const browser = await launchChromium();
  const { context } = browser;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && m.text().startsWith("render error")) pageErrors.push(m.text());
  });

  const openPage = async (link: string) => {
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: link }).click();
    await page.getByRole("heading", { level: 1, name: link }).waitFor();
  };
  return {
    base,
    idp,
    mock,
    rt,
    orgId,
    adminKey,
    context,
    page,
    pageErrors,
    openPage,
    shot: (name) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true }),
    async signIn(email) {
      idp.signInAs(email);
      await context.clearCookies();
      await page.goto(`${base}/`);
      await page.getByRole("link", { name: "Sign in with your identity provider" }).click();
      await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    },
    async stop() {
      await browser.close();
      await app.stop();
      await rt.shutdown();
      await mock.stop();
      await idp.stop();
      removeDir(dataDir);
    },
  };
}
