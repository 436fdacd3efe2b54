/**
 * `gateway sign-in-domains list | approve ORG DOMAIN | revoke DOMAIN`: the operator's
 * approval of the e-mail domains organizations list in `signInEmailDomains`. On a gateway
 * with more than one organization a listed domain lets first-time sign-ins join only once
 * approved here (services/sign-in-domains.ts says why); the operator holds the database,
 * which is what makes this theirs. Approvals and revocations are audited in the organization.
 */
import { loadConfig } from "../config.ts";
import { openServices } from "../runtime.ts";
import { approveSignInDomain, listSignInDomains, revokeSignInDomain } from "../services/sign-in-domains.ts";
import { DATA_FLAG, parseFlagsAndWords } from "./args.ts";
import { gatewayCommand } from "./command-name.ts";

export const signInDomainsListUsage = "gateway sign-in-domains list [--json] [--data DIR]";
export const signInDomainsApproveUsage = "gateway sign-in-domains approve ORG DOMAIN [--data DIR]";
export const signInDomainsRevokeUsage = "gateway sign-in-domains revoke DOMAIN [--data DIR]";

async function withServices(
  data: string | undefined,
  run: (services: Awaited<ReturnType<typeof openServices>>["services"]) => Promise<void>,
) {
  const { store, services } = await openServices(loadConfig({ data }));
  try {
    await run(services);
  } finally {
    await store.close();
  }
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function signInDomainsList(argv: string[]): Promise<void> {
  const { flags } = parseFlagsAndWords(argv, { json: { type: "boolean" }, ...DATA_FLAG }, []);
  await withServices(flags.data, async (services) => {
    const rows = await listSignInDomains(services);
    if (flags.json) {
      console.log(
        JSON.stringify(rows.map((r) => ({ ...r, approvedAt: r.approvedAt === null ? null : new Date(r.approvedAt).toISOString() }))),
      );
      return;
    }
    if (rows.length === 0) {
      console.log("No organization lists a sign-in e-mail domain (the preference signInEmailDomains).");
      return;
    }
    const several = (await services.store.listOrganizations()).length > 1;
    for (const r of rows) {
      const state = r.inEffect
        ? r.approvedAt === null
          ? "in effect (the only organization)"
          : `in effect, approved ${day(r.approvedAt)}`
        : r.listed
          ? `awaiting approval: ${gatewayCommand()} sign-in-domains approve ${r.orgId} ${r.domain}`
          : `approved ${day(r.approvedAt as number)}, not listed by the organization`;
      console.log(`${r.domain}  "${r.orgName}" (${r.orgId})  ${state}`);
    }
    if (!several) console.log("With one organization, listed domains need no approval; approvals count once there are more.");
  });
}

export async function signInDomainsApprove(argv: string[]): Promise<void> {
  const { flags, words } = parseFlagsAndWords(argv, DATA_FLAG, ["ORG", "DOMAIN"]);
  await withServices(flags.data, async (services) => {
    const { approval, organization, listed } = await approveSignInDomain(services, words[0] as string, words[1] as string);
    console.log(
      `Approved ${approval.domain} for "${organization.name}" (${organization.id}): ${
        listed
          ? "first-time sign-ins from verified addresses there join it as members."
          : "it takes effect once the organization lists it (preference signInEmailDomains)."
      }`,
    );
  });
}

export async function signInDomainsRevoke(argv: string[]): Promise<void> {
  const { flags, words } = parseFlagsAndWords(argv, DATA_FLAG, ["DOMAIN"]);
  await withServices(flags.data, async (services) => {
    const revoked = await revokeSignInDomain(services, words[0] as string);
    const organization = await services.store.getOrganization(revoked.orgId);
    console.log(
      `Revoked ${revoked.domain} for "${organization?.name ?? revoked.orgId}": on a gateway of several organizations, first-time sign-ins from it join none. Members who joined stay members.`,
    );
  });
}
