/** docs/policy.md's tier table is src/policy/tiers.ts's, with the bound every organization has (src/services/providers.ts). */
import { expect, test } from "bun:test";
import { TIERS } from "../../src/policy/tiers.ts";
import { MAX_PROVIDER_CONFIGS } from "../../src/services/providers.ts";
import { page } from "./doc-pages.ts";

const TIER_NAMES = ["starter", "professional", "enterprise"] as const;

function tierTable(): Map<string, string[]> {
  const lines = page("docs/policy.md").split("\n");
  const start = lines.indexOf(`| | ${TIER_NAMES.join(" | ")} |`);
  expect(start).toBeGreaterThan(-1);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [feature, ...cells] = line.slice(1, -1).split("|").map((c) => c.trim());
    rows.set(feature!, cells);
  }
  return rows;
}

const yes = (b: boolean) => (b ? "yes" : "no");

test("each tier's features are the code's", () => {
  const rows = tierTable();
  const expected: Record<string, (t: (typeof TIER_NAMES)[number]) => string> = {
    "security scanning, geography, spend caps": (t) => yes(TIERS[t].securityScanning),
    "`self-hosted` and `custom` providers": (t) => yes(TIERS[t].ownModels),
    "cloud platforms (`bedrock`, `azure-openai`)": (t) => yes(TIERS[t].cloudPlatforms),
    "audit log (`org.audit-log.list`)": (t) => yes(TIERS[t].auditLog),
    "provider configurations": (t) => String(Math.min(TIERS[t].maxProviders, MAX_PROVIDER_CONFIGS)),
  };
  expect([...rows.keys()].sort()).toEqual(Object.keys(expected).sort());
  for (const [feature, value] of Object.entries(expected))
    TIER_NAMES.forEach((t, i) => expect(rows.get(feature)![i]!.split(" ")[0], `${feature}, ${t}`).toBe(value(t)));
});
