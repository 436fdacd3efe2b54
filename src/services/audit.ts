/** Writes audit entries: who did what to which record, from where. Never secret values. */
import { newId } from "../domain/ids.ts";
import type { AuditEntry } from "../domain/types.ts";
import type { AuditAction } from "../domain/audit-actions.ts";
import type { Store } from "../store/store.ts";
import type { Actor } from "../domain/identity.ts";

export async function recordAudit(
  store: Store,
  orgId: string,
  actor: Actor,
  action: AuditAction,
  target: string | null,
  details: Record<string, unknown> = {},
  now: number = Date.now(),
): Promise<AuditEntry> {
  const entry: AuditEntry = {
    id: newId("aud"),
    orgId,
    actor: actor.ref,
    action,
    target,
    ip: actor.ip,
    userAgent: actor.userAgent,
    createdAt: now,
    details,
  };
  await store.appendAudit(entry);
  return entry;
}
