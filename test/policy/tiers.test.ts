/** Which provider kinds each tier includes, as the kinds' specs class them. */
import { expect, test } from "bun:test";
import { providerKindRefusal } from "../../src/policy/tiers.ts";
import { PROVIDER_KINDS } from "../../src/providers/catalog/provider-kinds.ts";

const refused = (tier: "starter" | "professional" | "enterprise") => PROVIDER_KINDS.filter((k) => providerKindRefusal(tier, k) !== null);

test("the starter tier refuses the caller's own models and the cloud platforms, with the tier that includes them", () => {
  expect(refused("starter")).toEqual(["azure-openai", "bedrock", "self-hosted", "custom"]);
  const err = providerKindRefusal("starter", "bedrock");
  expect([err?.status, err?.code, err?.details]).toEqual([403, "tier_limit_exceeded", { tier: "starter", requiredTier: "professional" }]);
  expect(providerKindRefusal("starter", "custom")?.message).toBe(
    "A custom provider needs the professional tier or above; this organization is on starter.",
  );
  expect(providerKindRefusal("starter", "azure-openai")?.message).toBe(
    "The azure-openai platform needs the professional tier or above; this organization is on starter.",
  );
});

test("the professional and enterprise tiers include every kind", () => {
  expect(refused("professional")).toEqual([]);
  expect(refused("enterprise")).toEqual([]);
});
