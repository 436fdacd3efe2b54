/** `gateway init`: the organization, its first admin, and an admin key printed once. */
import { loadConfig } from "../config.ts";
import type { Tier } from "../domain/types.ts";
import { initializeOrganization } from "../services/organizations.ts";
import { openServices } from "../runtime.ts";
import { DATA_FLAG, parseFlags, UsageError } from "./args.ts";

export const initUsage = "gateway init --org NAME --email EMAIL [--tier starter|professional|enterprise] [--json] [--data DIR]";

const TIERS: Tier[] = ["starter", "professional", "enterprise"];

export async function init(argv: string[]): Promise<void> {
  const f = parseFlags(argv, { org: { type: "string" }, email: { type: "string" }, tier: { type: "string" }, json: { type: "boolean" }, ...DATA_FLAG });
  if (!f.org || !f.email) throw new UsageError("--org and --email are required");
  const tier = (f.tier ?? "enterprise") as Tier;
  if (!TIERS.includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(", ")}`);
  const config = loadConfig({ data: f.data });
  const { store, services } = await openServices(config);
  try {
    const r = await initializeOrganization(services, { name: f.org, adminEmail: f.email, tier });
    if (f.json) {
      console.log(JSON.stringify({ orgId: r.organization.id, userId: r.user.id, serviceAccountId: r.serviceAccount.id, keyId: r.apiKey.id, apiKey: r.keyValue }));
      return;
    }
    const base = config.publicUrl ?? `http://${config.host}:${config.port}`;
    console.log(`Organization "${r.organization.name}" (${r.organization.id}, tier ${tier}) created with admin ${r.user.email}.

Admin API key (shown once; only its hash is stored):

  ${r.keyValue}

Try it once the server runs:

  curl -s ${base}/api/v1/gateway \\
    -H "Authorization: Bearer ${r.keyValue}" \\
    -H "Content-Type: application/json" \\
    -d '{"operation":"user.me","params":{}}'
`);
  } finally {
    await store.close();
  }
}
