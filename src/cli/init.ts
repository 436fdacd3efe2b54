/** `gateway init`: the organization, its first admin, and an admin key printed once. */
import { type Config, loadConfig } from "../config.ts";
import type { Tier } from "../domain/types.ts";
import { type InitializedOrganization, initializeOrganization } from "../services/organizations.ts";
import { openServices } from "../runtime.ts";
import type { ServiceDeps } from "../services/deps.ts";
import { listSignInDomains } from "../services/sign-in-domains.ts";
import { DATA_FLAG, parseFlags, UsageError } from "./args.ts";
import { gatewayCommand } from "./command-name.ts";
import { readLiveLock } from "./data-lock.ts";

export const initUsage = "gateway init --org NAME --email EMAIL [--tier starter|professional|enterprise] [--json] [--data DIR]";

const TIERS: Tier[] = ["starter", "professional", "enterprise"];

/** The address a local client reaches the server at (a wildcard listen address is reached on loopback). */
export function clientBaseUrl(config: Config): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, "");
  const host =
    config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/** Where the gateway serving this data folder answers, when one runs; else where it will (its settings). */
export function runningBaseUrl(config: Config): string {
  const url = readLiveLock(config.dataDir)?.url;
  return url ? clientBaseUrl({ ...config, port: Number(new URL(url).port) }) : clientBaseUrl(config);
}

/** What was created, with the admin key: the one time it is ever shown (only its hash is stored). */
export function createdMessage(r: InitializedOrganization): string {
  return `Organization "${r.organization.name}" (${r.organization.id}, tier ${r.organization.tier}) created with admin ${r.user.email}.

Admin API key (shown once; only its hash is stored):

  ${r.keyValue}
`;
}

/**
 * A second organization makes every listed sign-in domain wait for the operator's approval
 * (services/sign-in-domains.ts); whoever created it is told here, on stderr, rather than
 * finding out from a refused sign-in.
 */
async function noteDomainsAwaitingApproval(services: ServiceDeps): Promise<void> {
  const awaiting = (await listSignInDomains(services)).filter((d) => d.listed && !d.inEffect);
  if (awaiting.length === 0) return;
  console.error(
    `With several organizations, sign-in e-mail domains join only once approved: ${awaiting.map((d) => d.domain).join(", ")} now await approval (see \`${gatewayCommand()} sign-in-domains list\`).`,
  );
}

export async function init(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    org: { type: "string" },
    email: { type: "string" },
    tier: { type: "string" },
    json: { type: "boolean" },
    ...DATA_FLAG,
  });
  if (!f.org || !f.email) throw new UsageError("--org and --email are required");
  const tier = (f.tier ?? "enterprise") as Tier;
  if (!TIERS.includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(", ")}`);
  const config = loadConfig({ data: f.data });
  const { store, services } = await openServices(config);
  try {
    const r = await initializeOrganization(services, { name: f.org, adminEmail: f.email, tier });
    await noteDomainsAwaitingApproval(services);
    if (f.json) {
      console.log(
        JSON.stringify({
          orgId: r.organization.id,
          userId: r.user.id,
          serviceAccountId: r.serviceAccount.id,
          keyId: r.apiKey.id,
          apiKey: r.keyValue,
        }),
      );
      return;
    }
    // No provider is configured yet, so the call to try is one that needs none.
    console.log(`${createdMessage(r)}
Try it once the server runs:

  curl -s ${runningBaseUrl(config)}/api/v1/gateway \\
    -H "Authorization: Bearer ${r.keyValue}" \\
    -H "Content-Type: application/json" \\
    -d '{"operation":"user.me","params":{}}'
`);
  } finally {
    await store.close();
  }
}
