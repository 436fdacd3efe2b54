/** `org.*` operations on service accounts and API keys (admin only). */
import { Type } from "@sinclair/typebox";
import { badRequest } from "../lib/errors.ts";
import { listActiveKeys, revokeKey, updateKey } from "../services/api-keys.ts";
import { createServiceAccountWithKey, DEFAULT_PROXY_MODE, listServiceAccountsWithKeys } from "../services/service-accounts.ts";
import { responsibleUserId } from "../domain/identity.ts";
import { PlainName } from "../schemas/names.ts";
import { iso, presentKey, presentServiceAccount } from "./present.ts";
import { defineOperation } from "./registry.ts";

const Name = PlainName(200);
const Cents = Type.Union([Type.Integer({ minimum: 0, maximum: 1e12 }), Type.Null()]);
const KeyId = Type.String({ minLength: 1, maxLength: 100 });

export const listServiceAccounts = defineOperation({
  id: "org.service-accounts.list",
  access: "admin-read",
  summary: "All service accounts of the organization with their creator, creation date and active keys.",
  params: Type.Object({}),
  async run({ identity, deps }) {
    const rows = await listServiceAccountsWithKeys(deps, identity.organization.id);
    return { serviceAccounts: rows.map((r) => ({ ...presentServiceAccount(r.serviceAccount), apiKeys: r.apiKeys.map(presentKey) })) };
  },
});

export const listApiKeys = defineOperation({
  id: "org.api-keys.list",
  access: "admin-read",
  summary: "All active API keys of the organization, with the owner's e-mail.",
  params: Type.Object({}),
  async run({ identity, deps }) {
    const keys = await listActiveKeys(deps, identity.organization.id);
    return { apiKeys: keys.map((k) => ({ ...presentKey(k.key), ownerEmail: k.ownerEmail })) };
  },
});

export const createServiceAccount = defineOperation({
  id: "org.service-account.create",
  access: "admin",
  summary: "Creates a service account and its first API key; the key value is in this response only.",
  params: Type.Object({
    serviceAccountName: Name,
    name: Type.Optional(Name),
    description: Type.Optional(PlainName(2000, 0)),
    keyType: Type.Optional(Type.Union([Type.Literal("live"), Type.Literal("test")])),
    // Policy is mandatory on every call, so there is one proxy mode.
    proxyMode: Type.Optional(Type.Literal(DEFAULT_PROXY_MODE)),
    role: Type.Optional(Type.Union([Type.Literal("admin"), Type.Literal("member")])),
    spendCapCents: Type.Optional(Cents),
    monthlyCapCents: Type.Optional(Cents),
  }),
  async run({ identity, actor, deps }, p) {
    const created = await createServiceAccountWithKey(deps, actor, identity.organization, responsibleUserId(identity), {
      serviceAccountName: p.serviceAccountName,
      name: p.name ?? "default",
      description: p.description,
      keyType: p.keyType ?? "live",
      proxyMode: p.proxyMode,
      role: p.role,
      spendCapCents: p.spendCapCents,
      monthlyCapCents: p.monthlyCapCents,
    });
    const k = created.apiKey;
    return {
      serviceAccount: presentServiceAccount(created.serviceAccount),
      apiKey: { id: k.id, name: k.name, keyType: k.keyType, proxyMode: k.proxyMode, createdAt: iso(k.createdAt), key: created.keyValue },
    };
  },
});

export const revokeApiKey = defineOperation({
  id: "org.api-key.revoke",
  access: "admin",
  summary: "Revokes any key of the organization; it is refused from the next request on.",
  params: Type.Object({ keyId: KeyId, reason: Type.Optional(PlainName(1000, 0)) }),
  async run({ identity, actor, deps }, p) {
    const r = await revokeKey(deps, actor, identity.organization.id, p.keyId, p.reason ?? null);
    return { keyId: r.keyId, revokedAt: iso(r.revokedAt), auditEntryId: r.auditEntryId };
  },
});

export const updateApiKey = defineOperation({
  id: "org.api-key.update",
  access: "admin",
  summary: "Changes a key's name, lifetime spend cap or monthly cap.",
  params: Type.Object({
    keyId: KeyId,
    name: Type.Optional(Name),
    spendCapCents: Type.Optional(Cents),
    monthlyCapCents: Type.Optional(Cents),
  }),
  async run({ identity, actor, deps }, { keyId, ...patch }) {
    if (Object.keys(patch).length === 0) throw badRequest("params: give at least one of name, spendCapCents, monthlyCapCents");
    return presentKey(await updateKey(deps, actor, identity.organization.id, keyId, patch));
  },
});

export const orgKeyOperations = [listServiceAccounts, listApiKeys, createServiceAccount, revokeApiKey, updateApiKey];
