/** Service accounts and the creation of their API keys (the value is returned once, here). */
import { apiKeyPrefix, generateApiKey } from "../domain/api-key.ts";
import { newId } from "../domain/ids.ts";
import type { ApiKeyRecord, KeyType, Organization, Role, ServiceAccount } from "../domain/types.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import type { Actor } from "../domain/identity.ts";

export const DEFAULT_PROXY_MODE = "security_enhanced";

export interface NewServiceAccount {
  serviceAccountName: string;
  name: string;
  description?: string;
  keyType: KeyType;
  proxyMode?: string;
  role?: Role;
  spendCapCents?: number | null;
  monthlyCapCents?: number | null;
}

export interface CreatedServiceAccount {
  serviceAccount: ServiceAccount;
  apiKey: ApiKeyRecord;
  /** The key value. Shown once; only its hash is kept. */
  keyValue: string;
}

export async function createServiceAccountWithKey(
  deps: ServiceDeps,
  actor: Actor,
  organization: Organization,
  createdBy: string | null,
  input: NewServiceAccount,
): Promise<CreatedServiceAccount> {
  const now = deps.now();
  const serviceAccount: ServiceAccount = {
    id: newId("sa"),
    orgId: organization.id,
    name: input.serviceAccountName,
    description: input.description ?? "",
    role: input.role ?? "member",
    createdBy,
    createdAt: now,
  };
  const keyValue = generateApiKey(input.keyType);
  const apiKey: ApiKeyRecord = {
    id: newId("key"),
    orgId: organization.id,
    serviceAccountId: serviceAccount.id,
    name: input.name,
    keyHash: deps.hasher.hash(keyValue),
    keyPrefix: apiKeyPrefix(keyValue),
    keyType: input.keyType,
    proxyMode: input.proxyMode ?? DEFAULT_PROXY_MODE,
    spendCapCents: input.spendCapCents ?? null,
    monthlyCapCents: input.monthlyCapCents ?? null,
    spentMicros: 0,
    requestCount: 0,
    lastUsedAt: null,
    createdAt: now,
    revokedAt: null,
    revokedReason: null,
  };
  await deps.store.createServiceAccount(serviceAccount);
  await deps.store.createApiKey(apiKey);
  await recordAudit(
    deps.store,
    organization.id,
    actor,
    "service_account.create",
    serviceAccount.id,
    { name: serviceAccount.name, role: serviceAccount.role },
    now,
  );
  await recordAudit(
    deps.store,
    organization.id,
    actor,
    "api_key.create",
    apiKey.id,
    { serviceAccountId: serviceAccount.id, keyType: apiKey.keyType, keyPrefix: apiKey.keyPrefix },
    now,
  );
  return { serviceAccount, apiKey, keyValue };
}

export async function listServiceAccountsWithKeys(deps: ServiceDeps, orgId: string) {
  const [accounts, keys] = await Promise.all([
    deps.store.listServiceAccounts(orgId),
    deps.store.listApiKeys(orgId, { includeRevoked: false }),
  ]);
  const bySa = Map.groupBy(keys, (k) => k.serviceAccountId);
  return accounts.map((sa) => ({ serviceAccount: sa, apiKeys: bySa.get(sa.id) ?? [] }));
}
