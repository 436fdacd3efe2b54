/**
 * The setup step of scripts/start: creates the demo organization on the first run,
 * registers the mock provider when that organization has no providers, and prints a
 * ready-to-paste chat-completions curl. The admin key exists only in this process's
 * output, once: only its hash is stored and nothing here writes it anywhere.
 *
 *   bun run scripts/lib/demo-setup.ts --lock-pid PID [--mock-url URL [--mock-pid PID]] [serve's flags: --data --host --port --public-url]
 *
 * A flag it does not know stops it (exit 2) before anything is created, so a typo
 * never leaves a demo organization behind whose key scrolled past. Before it changes
 * anything it takes the data folder's lock for the start script (--lock-pid), which
 * the server takes over: a folder a running gateway holds stops it (exit 1) with
 * nothing changed, its mock providers included. The curl it prints
 * is also written to DIR/try-it.sh, with the key left as $GW_KEY (never on disk).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gatewayCommand } from "../../src/cli/command-name.ts";
import { prepareDataFolder } from "../../src/cli/data-folder.ts";
import { DataFolderInUse, lockDataFolder } from "../../src/cli/data-lock.ts";
import { clientBaseUrl, createdMessage } from "../../src/cli/init.ts";
import { type Config, ConfigError, loadConfig } from "../../src/config.ts";
import type { Organization } from "../../src/domain/types.ts";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { loadCatalog } from "../../src/providers/catalog/catalog.ts";
import { openServices } from "../../src/runtime.ts";
import { type InitializedOrganization, initializeOrganization } from "../../src/services/organizations.ts";
import { writeDemoMarker } from "../../src/services/demo-data/demo-marker.ts";
import { mockAnswers, registerMockProviders, repointMockProviders } from "./register-mock.ts";

const MOCK_WAIT_MS = 15_000;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const START_USAGE = 'Usage: ./scripts/start [--host H] [--port P] [--data DIR] [--public-url URL]   (see README: "Quick start")';

// serve's flags pass through unchanged, so this step sees the same data folder and address serve will use.
let f: Record<string, string | boolean | undefined>;
try {
  ({ values: f } = parseArgs({
    args: process.argv.slice(2),
    options: {
      data: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      "public-url": { type: "string" },
      "mock-url": { type: "string" },
      "mock-pid": { type: "string" },
      "lock-pid": { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (err) {
  console.error(`start: ${(err as Error).message.replace(/^TypeError \[\w+\]: /, "")}\n${START_USAGE}`);
  process.exit(2);
}
const flag = (name: string) => (typeof f[name] === "string" ? (f[name] as string) : undefined);

let config: Config;
try {
  config = loadConfig({ data: flag("data"), host: flag("host"), port: flag("port"), "public-url": flag("public-url") });
  prepareDataFolder(config.dataDir);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`start: ${err.message}`);
  process.exit(2);
}

// Nothing changes before the folder is ours: a refused start leaves the running gateway's providers alone.
try {
  lockDataFolder(config.dataDir, Number(flag("lock-pid")) || process.ppid);
} catch (err) {
  if (!(err instanceof DataFolderInUse)) throw err;
  console.error(`start: ${err.message}`);
  process.exit(1);
}

const gateway = gatewayCommand();
const demoName = process.env.GW_DEMO_ORG || "Demo";
const { store, services, masterKey } = await openServices(config);
try {
  const existing = await store.listOrganizations();
  let created: InitializedOrganization | null = null;
  if (existing.length === 0) {
    created = await initializeOrganization(services, {
      name: demoName,
      adminEmail: process.env.GW_DEMO_EMAIL || "admin@example.com",
      tier: "enterprise",
    });
    // Marks the one organization `gateway demo-data` may fill.
    writeDemoMarker(config.dataDir, { orgId: created.organization.id });
  }
  const org: Organization | undefined =
    created?.organization ?? (existing.length === 1 ? existing[0] : existing.find((o) => o.name === demoName));

  const lines: string[] = [];
  if (created) {
    lines.push(createdMessage(created));
    lines.push(
      `Analytics start empty. For 90 days of synthetic usage in "${created.organization.name}" (this demo organization only), run:`,
      `  ${gateway} demo-data --days 90${flag("data") ? ` --data ${flag("data")}` : ""}`,
      "",
    );
  }
  const mockUrl = flag("mock-url");
  if (org && mockUrl) {
    const pid = Number(flag("mock-pid"));
    if (await mockAnswers(mockUrl, MOCK_WAIT_MS, () => !pid || isRunning(pid))) {
      const deps = {
        ...services,
        box: new SecretBox(masterKey.derive("provider-key-encryption")),
        catalog: loadCatalog(config.catalogPath),
        onProvidersChanged: () => {},
      };
      // A mock address the egress policy refuses (0.0.0.0, say) is reported, not thrown as a stack.
      const refused = (err: unknown) => {
        console.error(`start: the mock provider at ${mockUrl} cannot be registered: ${(err as Error).message}`);
        return [];
      };
      const added = await registerMockProviders(deps, org, mockUrl).catch(refused);
      const moved = await repointMockProviders(deps, org, mockUrl).catch(refused);
      if (moved.length > 0)
        lines.push(`The mock providers (${moved.map((p) => p.name).join(", ")}) now point at the mock at ${mockUrl}.`, "");
      if (added.length > 0) {
        lines.push(
          `"${org.name}" had no providers, so the mock provider at ${mockUrl} now answers as its openai and`,
          `anthropic providers (${added.map((p) => p.name).join(", ")}): no provider keys or internet needed.`,
          `Add your own keys with provider.create and remove these with provider.delete (README: "Add your provider key").`,
          "",
        );
      }
    } else {
      console.error(`start: no mock provider answered at ${mockUrl}; it is not registered (is the port taken? set GW_MOCK_PORT)`);
    }
  }

  if (org && (await store.listProviderConfigs(org.id)).length === 0) {
    lines.push(`"${org.name}" has no providers yet: the call below answers once one is added (README: "Add your provider key").`, "");
  }
  const base = clientBaseUrl(config);
  const tryIt = join(config.dataDir, "try-it.sh");
  // The same call, with the key read from the environment: the key itself is never written.
  writeFileSync(
    tryIt,
    `#!/usr/bin/env bash\n# A first call to the gateway. Set GW_KEY to your admin key (printed once by ./scripts/start).\ncurl -s \${GW_URL:-${base}}/v1/chat/completions \\\n  -H "Authorization: Bearer \${GW_KEY:?set GW_KEY to your gateway key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]}'\necho\n`,
    { mode: 0o700 },
  );
  // Set once, as the README's examples read them: the address and the key.
  lines.push(
    `Try it once the server runs${config.port === 0 ? ' (port 0: use the port in the "listening" line)' : ""}:`,
    "",
    `  export GW_URL=${base}${created ? ` GW_KEY=${created.keyValue}` : ""}`,
    `  curl -s $GW_URL/v1/chat/completions \\`,
    `    -H "Authorization: Bearer $GW_KEY" \\`,
    `    -H "Content-Type: application/json" \\`,
    `    -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]}'`,
    "",
  );
  if (!created)
    lines.push(
      "  (GW_KEY: the admin key printed on the first run; it is not stored, only its hash;",
      `   lost it? \`${gateway} key create --email <admin e-mail>\` makes a new one)`,
      "",
    );
  lines.push(`The same call is in ${tryIt} (export GW_KEY=<the key> first). Stop with Ctrl-C.`);
  console.log(lines.join("\n"));
} finally {
  await store.close();
}
