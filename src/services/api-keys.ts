/** Key administration: listing active keys, revoking, changing name and caps. */
import type { ApiKeyRecord } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import type { Actor } from "../domain/identity.ts";

export interface ListedKey {
  key: ApiKeyRecord;
  ownerEmail: string | null;
}

/** Active keys of the organization with the e-mail of the member responsible for each. */
export async function listActiveKeys(deps: ServiceDeps, orgId: string): Promise<ListedKey[]> {
  const [keys, accounts, users] = await Promise.all([
    deps.store.listApiKeys(orgId, { includeRevoked: false }),
    deps.store.listServiceAccounts(orgId),
    deps.store.listUsers(orgId),
  ]);
  const creatorOf = new Map(accounts.map((sa) => [sa.id, sa.createdBy]));
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  return keys.map((key) => ({ key, ownerEmail: emailOf.get(creatorOf.get(key.serviceAccountId) ?? "") ?? null }));
}

async function keyInOrg(deps: ServiceDeps, orgId: string, keyId: string): Promise<ApiKeyRecord> {
  const key = await deps.store.getApiKey(keyId);
  // A key of another organization is reported exactly like a missing one.
  if (!key || key.orgId !== orgId) throw new ApiError(404, "not_found", `no API key ${keyId} in this organization`, { param: "keyId" });
  return key;
}

export interface Revocation {
  keyId: string;
  revokedAt: number;
  auditEntryId: string;
}

export async function revokeKey(deps: ServiceDeps, actor: Actor, orgId: string, keyId: string, reason: string | null): Promise<Revocation> {
  const key = await keyInOrg(deps, orgId, keyId);
  const now = deps.now();
  // A rotated key still in its grace period may be revoked sooner.
  if (key.revokedAt !== null && key.revokedAt <= now)
    throw new ApiError(409, "conflict", `API key ${keyId} was already revoked at ${new Date(key.revokedAt).toISOString()}`);
  const revoked = await deps.store.revokeApiKey(keyId, now, reason);
  // Evict before answering: the very next request with this key must be refused.
  await deps.onKeyChanged(key.keyHash);
  const audit = await recordAudit(deps.store, orgId, actor, "api_key.revoke", keyId, { reason, keyPrefix: key.keyPrefix }, now);
  return { keyId, revokedAt: revoked?.revokedAt ?? now, auditEntryId: audit.id };
}

export type KeyPatch = Partial<Pick<ApiKeyRecord, "name" | "spendCapCents" | "monthlyCapCents">>;

export async function updateKey(deps: ServiceDeps, actor: Actor, orgId: string, keyId: string, patch: KeyPatch): Promise<ApiKeyRecord> {
  const key = await keyInOrg(deps, orgId, keyId);
  if (key.revokedAt !== null) throw new ApiError(409, "conflict", `API key ${keyId} is revoked and can no longer be changed`);
  const updated = await deps.store.updateApiKey(keyId, patch);
  if (!updated) throw new ApiError(404, "not_found", `no API key ${keyId} in this organization`, { param: "keyId" });
  await deps.onKeyChanged(key.keyHash);
  await recordAudit(deps.store, orgId, actor, "api_key.update", keyId, { changed: Object.keys(patch) }, deps.now());
  return updated;
}
