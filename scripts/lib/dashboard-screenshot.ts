/**
 * Refreshes docs/dashboard-overview.png from a real run: a gateway on a fresh data folder
 * with the demo organization's 90 days of synthetic usage, the mock provider reporting
 * rate limits (so the rate-limit section has something to show), signed in through a
 * login link in Debian's chromium, the overview page captured whole.
 *
 *   bun scripts/lib/dashboard-screenshot.ts [--out FILE]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { demoData } from "../../src/cli/demo-data.ts";
import { mockSettings } from "../../src/cli/mock-provider.ts";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { startMockProvider } from "../../src/mock-provider/server.ts";
import { createRuntime, openServices } from "../../src/runtime.ts";
import { writeDemoMarker } from "../../src/services/demo-data/demo-marker.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { createLoginLink } from "../../src/services/sessions.ts";
import { launchChromium } from "../../test/support/chromium.ts";
import { removeDir } from "../../test/support/gateway-process.ts";
import { freePort } from "../../test/support/servers.ts";

const ROOT = join(import.meta.dir, "..", "..");
const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: "string" } }, strict: true });
const out = values.out ?? join(ROOT, "docs", "dashboard-overview.png");

/** Calls made against the mock's limit of 100 a minute: 80 puts the provider at "warning". */
const CALLS = 80;

const dataDir = mkdtempSync(join(tmpdir(), "gw-screenshot-"));
const port = await freePort();
const config = loadConfig({ data: dataDir, port: String(port) }, { GW_LOG_LEVEL: "silent", GW_ALLOW_PRIVATE_EGRESS: "1" });
const mock = startMockProvider(mockSettings(["--port", "0", "--rate-limit-requests", "100"], {}));

// The demo organization and its synthetic history, as ./scripts/start and `gateway demo-data` make them.
const setup = await openServices(config);
const org = await initializeOrganization(setup.services, { name: "Demo", adminEmail: "admin@example.com", tier: "enterprise" });
writeDemoMarker(dataDir, { orgId: org.organization.id });
await setup.store.close();
await demoData(["--data", dataDir, "--days", "30"]);

const rt = await createRuntime(config, createLogger("silent"));
const app = createApp(rt).listen({ hostname: "127.0.0.1", port });
const base = `http://127.0.0.1:${port}`;
const call = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.keyValue}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then(async (r) => {
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  });
const browser = await launchChromium({ width: 1280, height: 900 });
try {
  await call("/api/v1/gateway", {
    operation: "provider.create",
    params: {
      provider: "openai",
      name: "mock-openai",
      apiKey: "mock-key-123456",
      baseUrl: `http://127.0.0.1:${mock.port}/v1`,
      scope: "organization",
    },
  });
  for (let i = 0; i < CALLS; i++)
    await call("/v1/chat/completions", { model: "gpt-4o-mini", messages: [{ role: "user", content: `Question ${i}` }] });

  const page = await browser.context.newPage();
  const { token } = await createLoginLink(rt.services.store, org.user, rt.services.now());
  await page.goto(`${base}/auth/link?token=${token}`);
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  await page.locator(".chart canvas").first().waitFor();
  await page.locator("ul.plain .badge").first().waitFor();
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await app.stop();
  await rt.shutdown();
  mock.stop(true);
  removeDir(dataDir);
}
