/** ./scripts/start's mock providers follow the mock when GW_MOCK_PORT changes; other providers are never touched. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import { openServices } from "../../src/runtime.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { createProvider } from "../../src/services/providers.ts";
import { registerMockProviders, repointMockProviders } from "../../scripts/lib/register-mock.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-register-mock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("re-pointing moves only the script's own mock providers", async () => {
  const { store, services, masterKey } = await openServices(loadConfig({ data: dir }, { GW_ALLOW_PRIVATE_PROVIDERS: "1" }));
  const deps = {
    ...services,
    box: new SecretBox(masterKey.derive("provider-key-encryption")),
    catalog: Catalog.builtIn(),
    onProvidersChanged: () => {},
  };
  const { organization: org, user } = await initializeOrganization(services, {
    name: "Demo",
    adminEmail: "a@example.com",
    tier: "enterprise",
  });
  expect(await registerMockProviders(deps, org, "http://127.0.0.1:18080")).toHaveLength(2);
  // A real key someone added later, even under a mock's name pattern, stays where it is.
  const admin = { kind: "user" as const, id: user.id, role: "admin" as const, organization: org, user, sessionIdHash: "" };
  await createProvider(deps, admin, CLI_ACTOR, {
    provider: "groq",
    name: "real-groq",
    apiKey: "gsk_real_key_1234567890",
    scope: "organization",
  });

  expect(await repointMockProviders(deps, org, "http://127.0.0.1:18080")).toEqual([]);
  const moved = await repointMockProviders(deps, org, "http://127.0.0.1:19090/");
  expect(moved.map((p) => [p.name, p.baseUrl]).sort()).toEqual([
    ["mock-anthropic", "http://127.0.0.1:19090"],
    ["mock-openai", "http://127.0.0.1:19090/v1"],
  ]);
  const all = await store.listProviderConfigs(org.id);
  expect(all.find((p) => p.name === "real-groq")?.baseUrl).toBeNull();
  await store.close();
});
