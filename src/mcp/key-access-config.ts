/**
 * Setting a service account's or key's MCP allow lists (`mcp.access.*`, admins): the
 * subject must be the organization's own; clearing the lists allows everything again.
 */
import type { Actor, Identity } from "../domain/identity.ts";
import { ApiError } from "../lib/errors.ts";
import { recordAudit } from "../services/audit.ts";
import type { Store } from "../store/store.ts";
import type { McpKeyAccess } from "../domain/mcp-records.ts";

async function assertOwnSubject(store: Store, orgId: string, subjectId: string): Promise<void> {
  const own = subjectId.startsWith("key_")
    ? (await store.getApiKey(subjectId))?.orgId === orgId
    : (await store.listServiceAccounts(orgId)).some((sa) => sa.id === subjectId);
  if (!own)
    throw new ApiError(404, "not_found", `No service account or key ${subjectId.slice(0, 100)} in this organization.`, {
      param: "params.subject",
    });
}

export async function setKeyAccess(
  deps: { store: Store; now(): number },
  identity: Identity,
  actor: Actor,
  subjectId: string,
  lists: { servers: string[]; tools: string[] } | null,
): Promise<McpKeyAccess | null> {
  const orgId = identity.organization.id;
  await assertOwnSubject(deps.store, orgId, subjectId);
  const now = deps.now();
  if (lists === null) {
    await deps.store.deleteMcpKeyAccess(subjectId);
    await recordAudit(deps.store, orgId, actor, "mcp.access.clear", subjectId, {}, now);
    return null;
  }
  const access: McpKeyAccess = { subjectId, orgId, servers: lists.servers, tools: lists.tools, updatedAt: now };
  await deps.store.setMcpKeyAccess(access);
  await recordAudit(deps.store, orgId, actor, "mcp.access.set", subjectId, { servers: lists.servers, tools: lists.tools }, now);
  return access;
}
