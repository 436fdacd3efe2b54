/** Records and identities for unit tests of resolution, authorization and the model list: no store, no server. */
import type { ProviderConfigRecord, Tier } from "../../src/domain/types.ts";
import type { Identity } from "../../src/domain/identity.ts";
import { apiKeyRecord } from "../support/records.ts";

export const ORG_ID = "org_t";

export function organization(tier: Tier = "enterprise") {
  return { id: ORG_ID, name: "T", tier, createdAt: 0 };
}

/** A provider configuration; the key sits in `secretCiphertext` in the clear, since tests "open" it with `openPlain`. */
export function providerRecord(over: Partial<ProviderConfigRecord> & { id: string; apiKey?: string }): ProviderConfigRecord {
  const { apiKey = `sk-${over.id}`, ...rest } = over;
  return {
    orgId: ORG_ID,
    ownerUserId: null,
    provider: "openai",
    name: over.id,
    baseUrl: null,
    country: null,
    format: "chat",
    models: [],
    limits: {},
    settings: {},
    secretCiphertext: apiKey,
    keyHint: "sk-...",
    createdAt: 1_000,
    updatedAt: 1_000,
    ...rest,
  };
}

export const openPlain = (rec: ProviderConfigRecord) => ({ type: "api-key" as const, apiKey: rec.secretCiphertext });

/** A service account's key identity, created by `createdBy`. */
export function serviceAccount(createdBy: string | null, tier: Tier = "enterprise"): Identity {
  const org = organization(tier);
  const serviceAccount = { id: "sa_t", orgId: ORG_ID, name: "bot", description: "", role: "member" as const, createdBy, createdAt: 0 };
  const key = apiKeyRecord(ORG_ID, "sa_t", { id: "key_t", keyHash: "", keyPrefix: "gw_live_xxxx", createdAt: 0 });
  return { kind: "serviceAccount", id: "sa_t", role: "member", organization: org, serviceAccount, key };
}

/** A signed-in user's identity. */
export function user(id: string, tier: Tier = "enterprise"): Identity {
  return {
    kind: "user",
    id,
    role: "member",
    organization: organization(tier),
    user: { id, orgId: ORG_ID, email: `${id}@example.com`, role: "member", createdAt: 0 },
    sessionIdHash: "",
  };
}
