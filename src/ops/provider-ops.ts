/** `provider.*` operations: a caller's provider keys, added once and resolved per call. */
import { type TObject, Type } from "@sinclair/typebox";
import type { ProviderConfigRecord } from "../domain/types.ts";
import type { Identity, ProviderSide } from "../domain/identity.ts";
import { badRequest } from "../lib/errors.ts";
import { createProvider, deleteProvider, listProviders, updateProvider } from "../services/providers.ts";
import { ModelName, PlainName, ProviderName } from "../schemas/names.ts";
import { iso } from "./present.ts";
import { defineOperation } from "./registry.ts";

const Secret = Type.String({ minLength: 1, maxLength: 8192 });
const Limit = Type.Integer({ minimum: 1, maximum: 1e12 });

const fields = {
  apiKey: Type.Optional(Secret),
  accessKeyId: Type.Optional(Type.String({ minLength: 16, maxLength: 128 })),
  secretAccessKey: Type.Optional(Secret),
  sessionToken: Type.Optional(Secret),
  region: Type.Optional(PlainName(40, 0)),
  // Names are used as `name/model` and echoed in x-gw-provider: no slash, printable ASCII only.
  name: Type.Optional(ProviderName),
  baseUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  country: Type.Optional(Type.String({ pattern: "^[A-Za-z]{2}$" })),
  models: Type.Optional(Type.Array(ModelName, { maxItems: 2000 })),
  limits: Type.Optional(
    Type.Object(
      { requestsPerMinute: Type.Optional(Limit), tokensPerMinute: Type.Optional(Limit), requestsPerDay: Type.Optional(Limit) },
      { additionalProperties: false },
    ),
  ),
  scope: Type.Optional(Type.Union([Type.Literal("user"), Type.Literal("organization")])),
  format: Type.Optional(Type.Union([Type.Literal("chat"), Type.Literal("messages")])),
  apiVersion: Type.Optional(PlainName(40)),
  // Keys are models: a key the pattern does not match is refused, not kept beside the matched ones.
  deployments: Type.Optional(Type.Record(ModelName, PlainName(200), { additionalProperties: false })),
};

const Id = Type.String({ minLength: 1, maxLength: 100 });

/** The side's providers of those the caller sees: the organization's, or the caller's own (not, for an admin, other members'). */
function ofSide(visible: ProviderConfigRecord[], identity: Identity, scope: ProviderSide | undefined): ProviderConfigRecord[] {
  if (scope === undefined) return visible;
  if (scope === "organization") return visible.filter((p) => p.ownerUserId === null);
  if (identity.kind !== "user")
    throw badRequest('params.scope: "user" means the caller\'s own providers, and a service account has none', { param: "params.scope" });
  return visible.filter((p) => p.ownerUserId === identity.user.id);
}

const strict = <T extends TObject>(o: T) => ({ ...o, additionalProperties: false }) as T;

/** A provider as operations show it: never the key, only its hint. */
export function presentProvider(p: ProviderConfigRecord) {
  return {
    id: p.id,
    provider: p.provider,
    name: p.name,
    baseUrl: p.baseUrl,
    country: p.country,
    format: p.format,
    models: p.models,
    limits: p.limits,
    scope: p.ownerUserId === null ? "organization" : "user",
    ownerUserId: p.ownerUserId,
    settings: p.settings,
    keyHint: p.keyHint,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    // Serving, or stopped (its owner left the organization) until an admin deletes it.
    status: p.disabled ? "disabled" : "serving",
    disabled: p.disabled ? { at: iso(p.disabled.at), reason: p.disabled.reason } : null,
  };
}

export const providerCreate = defineOperation({
  id: "provider.create",
  access: { param: "scope", absent: "member-write", present: "admin", values: ["organization"] },
  // `context.scope: "organization"` adds the organization's, so it needs an admin as the param does.
  contextScope: "param",
  summary: "Adds a provider key (sealed at rest; only its hint is ever shown).",
  params: strict(Type.Object({ provider: Type.String({ minLength: 1, maxLength: 40 }), ...fields })),
  async run({ identity, actor, deps }, p) {
    return { provider: presentProvider(await createProvider(deps, identity, actor, p)) };
  },
});

export const providerList = defineOperation({
  id: "provider.list",
  access: "read",
  contextScope: "param",
  summary:
    "The providers the caller can see: the organization's and their own (admins: all); `scope` keeps one side: `organization`, or `user` (the caller's own).",
  params: Type.Object({ scope: fields.scope }),
  async run({ identity, deps }, { scope }) {
    const visible = await listProviders(deps, identity);
    return { providers: ofSide(visible, identity, scope).map(presentProvider) };
  },
});

export const providerUpdate = defineOperation({
  id: "provider.update",
  access: "member-write",
  summary: "Changes a provider's settings or rotates its key.",
  params: strict(Type.Object({ id: Id, provider: Type.Optional(Type.String({ maxLength: 40 })), ...fields })),
  async run({ identity, actor, deps }, { id, ...patch }) {
    return { provider: presentProvider(await updateProvider(deps, identity, actor, id, patch)) };
  },
});

export const providerDelete = defineOperation({
  id: "provider.delete",
  access: "member-write",
  summary: "Removes a provider and its sealed key; this is how an admin confirms deleting one disabled when its owner left.",
  params: Type.Object({ id: Id }),
  async run({ identity, actor, deps }, { id }) {
    await deleteProvider(deps, identity, actor, id);
    return { id, deleted: true };
  },
});

export const providerOperations = [providerCreate, providerList, providerUpdate, providerDelete];
