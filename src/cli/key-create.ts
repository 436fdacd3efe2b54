/**
 * `gateway key create --email E`: operator recovery. A lost admin key cannot be shown
 * again (only its hash is stored), so whoever runs the server can make a new admin key
 * for an admin user, printed once. Running it needs the data folder (and master key),
 * which is what makes it the operator's, not a caller's, power; it is audited.
 */
import { loadConfig } from "../config.ts";
import { CLI_ACTOR } from "../domain/identity.ts";
import type { Organization } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import { normalizeEmail } from "../services/organizations.ts";
import { createServiceAccountWithKey } from "../services/service-accounts.ts";
import { openServices } from "../runtime.ts";
import { DATA_FLAG, parseFlags, UsageError } from "./args.ts";
import { gatewayCommand } from "./command-name.ts";

export const keyCreateUsage = "gateway key create --email EMAIL [--json] [--data DIR]";

export async function keyCreate(argv: string[]): Promise<void> {
  const f = parseFlags(argv, { email: { type: "string" }, json: { type: "boolean" }, ...DATA_FLAG });
  if (!f.email) throw new UsageError("--email is required");
  const { store, services } = await openServices(loadConfig({ data: f.data }));
  try {
    const user = await store.getUserByEmail(normalizeEmail(f.email));
    if (!user) throw new ApiError(404, "not_found", `no user with e-mail ${f.email}; see \`${gatewayCommand()} user add\``);
    if (user.role !== "admin")
      throw new ApiError(
        403,
        "forbidden",
        `${user.email} is a member, not an admin; recovery keys are for admins (promote them first, or give this to an admin)`,
      );
    const org = (await store.getOrganization(user.orgId)) as Organization;
    const created = await createServiceAccountWithKey(services, CLI_ACTOR, org, user.id, {
      serviceAccountName: `recovery-${new Date(services.now()).toISOString().slice(0, 10)}`,
      description: `Created by gateway key create for ${user.email}`,
      role: "admin",
      name: "recovery",
      keyType: "live",
    });
    if (f.json) {
      console.log(
        JSON.stringify({
          orgId: org.id,
          userId: user.id,
          serviceAccountId: created.serviceAccount.id,
          keyId: created.apiKey.id,
          apiKey: created.keyValue,
        }),
      );
      return;
    }
    console.log(`New admin key for ${user.email} in "${org.name}" (shown once; only its hash is stored):

  ${created.keyValue}

Revoke the lost one with the gateway operation org.api-key.revoke (org.api-keys.list shows them).`);
  } finally {
    await store.close();
  }
}
