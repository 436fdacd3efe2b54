/**
 * What an organization admin does to members, service accounts and keys beyond creating
 * them: remove a member, change a role, delete a service account, rotate a key. Each
 * checks the target belongs to the caller's organization (another organization's record
 * is reported exactly like a missing one), keeps at least one admin, drops cached keys
 * before answering, and writes its audit entry.
 */
import { apiKeyPrefix, generateApiKey, spendAccountOf } from "../domain/api-key.ts";
import type { Actor } from "../domain/identity.ts";
import { newId } from "../domain/ids.ts";
import type { ApiKeyRecord, Role, User } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";

/** The longest a rotated key keeps working beside its successor. */
export const MAX_ROTATION_GRACE_S = 7 * 24 * 3600;

async function memberInOrg(deps: ServiceDeps, orgId: string, userId: string): Promise<User> {
  const user = await deps.store.getUser(userId);
  if (!user || user.orgId !== orgId) throw new ApiError(404, "not_found", `no member ${userId} in this organization`, { param: "userId" });
  return user;
}

async function refuseLastAdmin(deps: ServiceDeps, user: User, doing: string): Promise<void> {
  if (user.role !== "admin") return;
  const admins = (await deps.store.listUsers(user.orgId)).filter((u) => u.role === "admin");
  if (admins.length <= 1)
    throw new ApiError(409, "conflict", `${user.email} is the organization's only admin; make another member admin before you ${doing}.`);
}

export interface Removal {
  userId: string;
  removed: true;
  /** The member's personal providers, which stopped serving; an admin deletes them (provider.delete). */
  providersDisabled: { id: string; name: string; provider: string }[];
}

/**
 * Removes a member. Their personal providers stop serving first (their key and address
 * are the person's, who is no longer answerable here); they stay listed as disabled until
 * an admin deletes them. Service accounts the member created belong to the organization
 * and keep working.
 */
export async function removeMember(
  deps: ServiceDeps & { onProvidersChanged(orgId: string): void | Promise<void> },
  actor: Actor,
  orgId: string,
  userId: string,
): Promise<Removal> {
  const user = await memberInOrg(deps, orgId, userId);
  await refuseLastAdmin(deps, user, "remove them");
  const now = deps.now();
  const disabled = await deps.store.disableUserProviders(orgId, user.id, now, `its owner ${user.email} was removed from the organization`);
  // Every node drops the organization's providers from memory before the answer (change bus).
  if (disabled.length > 0) await deps.onProvidersChanged(orgId);
  // Their sessions and sign-in links go with them: a removed member is signed out at once.
  await deps.store.removeUser(user.id);
  // And their invitation: it would be listed as pending for ever and refuse a new one (409).
  await deps.store.deleteInvitation(orgId, user.email);
  const providersDisabled = disabled.map((p) => ({ id: p.id, name: p.name, provider: p.provider }));
  await recordAudit(
    deps.store,
    orgId,
    actor,
    "member.remove",
    user.id,
    { email: user.email, role: user.role, providersDisabled: providersDisabled.map((p) => p.id) },
    now,
  );
  return { userId: user.id, removed: true, providersDisabled };
}

export async function changeMemberRole(deps: ServiceDeps, actor: Actor, orgId: string, userId: string, role: Role): Promise<User> {
  const user = await memberInOrg(deps, orgId, userId);
  if (user.role === role) return user;
  if (role !== "admin") await refuseLastAdmin(deps, user, "make them a member");
  const updated = await deps.store.updateUserRole(user.id, role);
  if (!updated) throw new ApiError(404, "not_found", `no member ${userId} in this organization`, { param: "userId" });
  await recordAudit(deps.store, orgId, actor, "member.role-change", user.id, { email: user.email, from: user.role, to: role }, deps.now());
  return updated;
}

export async function deleteServiceAccount(
  deps: ServiceDeps,
  actor: Actor,
  orgId: string,
  serviceAccountId: string,
): Promise<{ serviceAccountId: string; deleted: true; keysDeleted: number }> {
  const account = (await deps.store.listServiceAccounts(orgId)).find((sa) => sa.id === serviceAccountId);
  if (!account)
    throw new ApiError(404, "not_found", `no service account ${serviceAccountId} in this organization`, { param: "serviceAccountId" });
  const keys = (await deps.store.listApiKeys(orgId, { includeRevoked: true })).filter((k) => k.serviceAccountId === account.id);
  await deps.store.deleteServiceAccount(account.id);
  // Evict before answering: the very next request with any of its keys must be refused.
  await Promise.all(keys.map((k) => deps.onKeyChanged(k.keyHash)));
  await recordAudit(
    deps.store,
    orgId,
    actor,
    "service_account.delete",
    account.id,
    { name: account.name, keyPrefixes: keys.map((k) => k.keyPrefix) },
    deps.now(),
  );
  return { serviceAccountId: account.id, deleted: true, keysDeleted: keys.length };
}

export interface Rotation {
  apiKey: ApiKeyRecord;
  /** The new key's value, shown this once. */
  keyValue: string;
  previous: { keyId: string; revokedAt: number };
}

/**
 * A new key for the same service account with the old one's name, type, mode and caps;
 * the old key stops now, or after `graceS` seconds so deployments can switch over. The
 * new key joins the old one's line (`spendKeyId`): its caps count what the line spent
 * so far, so a rotation is never a way to reset a cap.
 */
export async function rotateKey(deps: ServiceDeps, actor: Actor, orgId: string, keyId: string, graceS: number): Promise<Rotation> {
  const old = await deps.store.getApiKey(keyId);
  const now = deps.now();
  if (!old || old.orgId !== orgId) throw new ApiError(404, "not_found", `no API key ${keyId} in this organization`, { param: "keyId" });
  if (old.revokedAt !== null)
    throw new ApiError(
      409,
      "conflict",
      `API key ${keyId} is already revoked${old.revokedAt > now ? " or rotated" : ""}; rotate its successor instead.`,
    );
  const keyValue = generateApiKey(old.keyType);
  const apiKey: ApiKeyRecord = {
    ...old,
    id: newId("key"),
    keyHash: deps.hasher.hash(keyValue),
    keyPrefix: apiKeyPrefix(keyValue),
    spendKeyId: spendAccountOf(old),
    spentMicros: 0,
    requestCount: 0,
    lastUsedAt: null,
    createdAt: now,
    revokedAt: null,
    revokedReason: null,
  };
  await deps.store.createApiKey(apiKey);
  const revokedAt = now + graceS * 1000;
  await deps.store.revokeApiKey(old.id, revokedAt, `rotated to ${apiKey.id}`);
  await deps.onKeyChanged(old.keyHash);
  await recordAudit(
    deps.store,
    orgId,
    actor,
    "api_key.rotate",
    old.id,
    { newKeyId: apiKey.id, keyPrefix: apiKey.keyPrefix, graceSeconds: graceS },
    now,
  );
  return { apiKey, keyValue, previous: { keyId: old.id, revokedAt } };
}
