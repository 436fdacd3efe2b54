/** A call's target for tests that need one without a store: the kind's own format, country and name, an unreachable address unless given. */
import { loadCatalog } from "../../src/providers/catalog/catalog.ts";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import { type Target, targetFor } from "../../src/providers/target.ts";

export const testCatalog = loadCatalog(null);

export function testTarget(kind: ProviderKind, model: string, baseUrl = "http://127.0.0.1:9/v1"): Target {
  return targetFor({
    info: PROVIDER_KINDS_INFO[kind],
    baseUrl,
    credentials: { type: "api-key", apiKey: "sk-test" },
    model,
    catalogModel: testCatalog.model(model),
  });
}
