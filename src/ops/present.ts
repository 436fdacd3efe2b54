/** How records look in operation results: ISO timestamps, no hashes, no secrets. */
import type { ApiKeyRecord, AuditEntry, ServiceAccount, User } from "../domain/types.ts";

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function presentServiceAccount(sa: ServiceAccount) {
  return { id: sa.id, name: sa.name, description: sa.description, role: sa.role, createdBy: sa.createdBy, createdAt: iso(sa.createdAt) };
}

export function presentKey(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    serviceAccountId: k.serviceAccountId,
    keyType: k.keyType,
    proxyMode: k.proxyMode,
    keyPrefix: k.keyPrefix,
    spendCapCents: k.spendCapCents,
    monthlyCapCents: k.monthlyCapCents,
    spentCents: k.spentMicros / 10_000,
    lastUsed: iso(k.lastUsedAt),
    requestCount: k.requestCount,
    createdAt: iso(k.createdAt),
    revokedAt: iso(k.revokedAt),
  };
}

export function presentUser(u: User) {
  return { id: u.id, email: u.email, role: u.role, createdAt: iso(u.createdAt) };
}

export function presentAudit(e: AuditEntry) {
  return {
    id: e.id,
    actor: e.actor,
    action: e.action,
    target: e.target,
    ip: e.ip,
    userAgent: e.userAgent,
    createdAt: iso(e.createdAt),
    details: e.details,
  };
}
