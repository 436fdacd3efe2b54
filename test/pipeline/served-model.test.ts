/** The catalog model a target serves: its own, or the listed model an Azure configuration maps to the deployment it calls. */
import { expect, test } from "bun:test";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import { targetFor } from "../../src/providers/target.ts";
import { servedModel } from "../../src/pipeline/served-model.ts";
import { testCatalog, testTarget } from "../support/targets.ts";

/** A target on a configuration whose settings are `settings`, as resolution builds it. */
const configured = (kind: ProviderKind, model: string, settings: Record<string, unknown>) =>
  targetFor({
    info: PROVIDER_KINDS_INFO[kind],
    baseUrl: "http://127.0.0.1:9",
    credentials: { type: "api-key", apiKey: "sk-test" },
    model,
    catalogModel: testCatalog.model(model),
    config: { id: "prv_1", name: "az", format: "chat", country: "US", settings },
  });

test("a listed model is itself, at any kind", () => {
  expect(servedModel(testTarget("openai", "gpt-4o"), testCatalog)?.id).toBe("gpt-4o");
  expect(servedModel(testTarget("mistral", "mistral-embed"), testCatalog)?.id).toBe("mistral-embed");
  expect(servedModel(testTarget("openai", "ft:gpt-4o-mini:acme::x1"), testCatalog)).toBeUndefined();
});

test("an Azure deployment called by its own name serves the listed model its configuration maps to it", () => {
  const deployments = { "text-embedding-3-large": "team-embed", "gpt-4o": "team-chat", "our-alias": "team-chat" };
  expect(servedModel(configured("azure-openai", "team-embed", { deployments }), testCatalog)?.id).toBe("text-embedding-3-large");
  // An unlisted key naming the same deployment (an alias of the operator's) leaves the listed one the answer.
  expect(servedModel(configured("azure-openai", "team-chat", { deployments }), testCatalog)?.id).toBe("gpt-4o");
  // Called by an unlisted key, the call goes to that key's deployment: what runs there is what it serves.
  expect(servedModel(configured("azure-openai", "our-alias", { deployments }), testCatalog)?.id).toBe("gpt-4o");
  // A dated id and its alias are one listed model.
  const dated = { "gpt-4o": "d", "gpt-4o-2024-08-06": "d" };
  expect(servedModel(configured("azure-openai", "d", { deployments: dated }), testCatalog)?.id).toBe("gpt-4o");
});

test("a deployment nothing listed maps to, or two listed models claim, is not known; nor is the map read for another kind", () => {
  expect(servedModel(configured("azure-openai", "other", { deployments: { "gpt-4o": "team-chat" } }), testCatalog)).toBeUndefined();
  const two = { "gpt-4o": "shared", "text-embedding-3-small": "shared" };
  expect(servedModel(configured("azure-openai", "shared", { deployments: two }), testCatalog)).toBeUndefined();
  // `constructor` and friends are not entries of the map.
  expect(servedModel(configured("azure-openai", "constructor", { deployments: {} }), testCatalog)).toBeUndefined();
  expect(
    servedModel(configured("custom", "team-embed", { deployments: { "text-embedding-3-large": "team-embed" } }), testCatalog),
  ).toBeUndefined();
});
