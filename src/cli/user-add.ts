/** `gateway user add`: adds a member who can then sign in to the dashboard. */
import { loadConfig } from "../config.ts";
import type { Role } from "../domain/types.ts";
import { CLI_ACTOR } from "../domain/identity.ts";
import { addMember, resolveOrganization } from "../services/organizations.ts";
import { openServices } from "../runtime.ts";
import { DATA_FLAG, parseFlags, UsageError } from "./args.ts";

export const userAddUsage = "gateway user add --email EMAIL [--role admin|member] [--org ID|NAME] [--json] [--data DIR]";

export async function userAdd(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    email: { type: "string" },
    role: { type: "string" },
    org: { type: "string" },
    json: { type: "boolean" },
    ...DATA_FLAG,
  });
  if (!f.email) throw new UsageError("--email is required");
  const role = (f.role ?? "member") as Role;
  if (role !== "admin" && role !== "member") throw new UsageError("--role must be admin or member");
  const { store, services } = await openServices(loadConfig({ data: f.data }));
  try {
    const org = await resolveOrganization(services, f.org);
    const user = await addMember(services, CLI_ACTOR, org.id, { email: f.email, role });
    if (f.json) console.log(JSON.stringify({ userId: user.id, orgId: org.id, email: user.email, role: user.role }));
    else console.log(`Added ${user.email} (${user.id}) to "${org.name}" as ${user.role}.`);
  } finally {
    await store.close();
  }
}
