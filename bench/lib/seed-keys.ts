/**
 * An organization with many API keys written straight into a data folder's store,
 * for the benchmarks that need 100,000 keys (creating them over HTTP would take
 * longer than what is measured). Returns the key values.
 */
import { loadConfig } from "../../src/config.ts";
import { apiKeyPrefix, generateApiKey } from "../../src/domain/api-key.ts";
import { newId } from "../../src/domain/ids.ts";
import { openServices } from "../../src/runtime.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";

export async function seedKeys(dataDir: string, count: number): Promise<{ values: string[]; adminKey: string }> {
  const { store, services } = await openServices(loadConfig({ data: dataDir }, {}));
  try {
    const org = await initializeOrganization(services, { name: "Bench", adminEmail: "bench@example.com", tier: "enterprise" });
    const values: string[] = [];
    for (let i = 0; i < count; i++) {
      const value = generateApiKey("live");
      values.push(value);
      await store.createApiKey({
        ...org.apiKey,
        id: newId("key"),
        keyHash: services.hasher.hash(value),
        keyPrefix: apiKeyPrefix(value),
        name: `k${i}`,
        createdAt: Date.now(),
      });
    }
    return { values, adminKey: org.keyValue };
  } finally {
    await store.close();
  }
}
