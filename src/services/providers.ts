/**
 * Provider configurations: a caller's own provider key, stored once and resolved per
 * call. Credentials are sealed with AES-256-GCM bound to the record id; only a hint
 * (`sk-...abcd`) ever leaves this module.
 *
 * Ownership (docs/security.md): a provider belongs to the organization (scope
 * `organization`, managed by admins only) or to one person (scope `user`, managed by
 * that person and by admins). A service account is never an owner and never acts as
 * its creator here: a member-role key can change no provider at all, so it cannot
 * re-point a key it can reach at an address of its own.
 */
import { newId } from "../domain/ids.ts";
import type { ProviderConfigRecord, ProviderFormat, ProviderLimits } from "../domain/types.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { keyHint, type SecretBox } from "../lib/secret-box.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import { isProviderKind, type ProviderKind } from "../providers/catalog/provider-kinds.ts";
import { hintSource, type ProviderCredentials } from "../providers/credentials.ts";
import { settingsFor, specFor } from "../providers/specs.ts";
import { isAuthorizedCountry } from "../policy/geography.ts";
import { checkEgressUrl } from "../lib/egress/egress-policy.ts";
import { providerBlocked } from "../policy/provider-authorization.ts";
import { checkProviderCount, checkProviderKindAllowed, TIERS } from "../policy/tiers.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import type { Actor, Identity } from "../domain/identity.ts";
import { defaultScope, editable, ownerFor, personOf } from "./provider-ownership.ts";

export interface ProviderDeps extends ServiceDeps {
  box: SecretBox;
  catalog: Catalog;
  /** Drops the organization's providers from memory so the next call sees the change. */
  onProvidersChanged(orgId: string): void | Promise<void>;
}

export interface ProviderInput {
  provider?: string;
  apiKey?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  region?: string;
  name?: string;
  baseUrl?: string;
  country?: string;
  models?: string[];
  limits?: ProviderLimits;
  scope?: "user" | "organization";
  format?: "chat" | "messages";
  apiVersion?: string;
  deployments?: Record<string, string>;
}

/**
 * Provider configurations one organization may hold, whatever its tier: each declares
 * up to 2,000 models and a routed call scores every candidate (about 10 ms per 100,000),
 * so the number must be bounded for a call's cost to be. 100 is far past any real set
 * of vendors, regions and teams (docs/security.md, "Caller-chosen names and bounded state").
 */
export const MAX_PROVIDER_CONFIGS = 100;

function checkConfigurationBound(existing: number): void {
  if (existing >= MAX_PROVIDER_CONFIGS) throw configurationBoundReached(existing);
}

const configurationBoundReached = (existing: number) =>
  new ApiError(
    409,
    "conflict",
    `this organization has ${existing} provider configurations, the most it may hold (${MAX_PROVIDER_CONFIGS}); delete one it no longer uses (provider.delete) before adding another`,
  );

/** Credentials travel in HTTP headers: a control character would break the request (or split it). */
const HEADER_SAFE = /^[\x20-\x7e\x80-\xff]*$/;

const hintOf = (c: ProviderCredentials) => (c.type === "api-key" && c.apiKey === "" ? "(no key)" : keyHint(hintSource(c)));

function headerSafe(value: string | undefined, field: string): void {
  if (value !== undefined && !HEADER_SAFE.test(value))
    throw badRequest(`params.${field}: must not contain control characters (a line break, say) or characters outside Latin-1`, {
      param: `params.${field}`,
    });
}

/** Opens a record's credentials (only the request path and provider checks need them). */
export function openCredentials(box: SecretBox, rec: ProviderConfigRecord): ProviderCredentials {
  return JSON.parse(box.open(rec.secretCiphertext, rec.id)) as ProviderCredentials;
}

function credentialsFrom(kind: ProviderKind, input: ProviderInput): ProviderCredentials {
  for (const field of ["apiKey", "accessKeyId", "secretAccessKey", "sessionToken"] as const) headerSafe(input[field], field);
  return specFor(kind).credentials(input);
}

function normalizeBaseUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw badRequest("params.baseUrl: must be an http(s) URL", { param: "params.baseUrl" });
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw badRequest("params.baseUrl: must be an http(s) URL", { param: "params.baseUrl" });
  if (u.username || u.password)
    throw badRequest("params.baseUrl: must not carry credentials; give the key as apiKey", { param: "params.baseUrl" });
  return `${u.origin}${u.pathname}`.replace(/\/+$/, "");
}

/** Checks a configuration against its kind's rules and returns the stored (non-secret) fields. */
function shape(deps: ProviderDeps, kind: ProviderKind, input: ProviderInput, current?: ProviderConfigRecord) {
  const info = deps.catalog.kind(kind);
  const spec = specFor(kind);
  const declaresCountry = spec.declaresCountry;
  const baseUrl = input.baseUrl !== undefined ? normalizeBaseUrl(input.baseUrl) : (current?.baseUrl ?? null);
  if (info.needsBaseUrl && !baseUrl)
    throw badRequest(`params.baseUrl: a ${kind} provider needs the address of its API`, { param: "params.baseUrl" });
  let country = current?.country ?? info.country;
  if (input.country !== undefined) {
    if (!declaresCountry && input.country.toUpperCase() !== info.country) {
      throw badRequest(`params.country: the country of ${kind} is ${info.country} and cannot be changed`, { param: "params.country" });
    }
    country = input.country.toUpperCase();
  }
  if (declaresCountry && !country)
    throw badRequest(`params.country: a ${kind} provider must declare the ISO country where it runs`, { param: "params.country" });
  if (!isAuthorizedCountry(country)) throw providerBlocked(input.name ?? current?.name ?? kind, country);
  if (input.format !== undefined && !spec.choosesFormat)
    throw badRequest("params.format: only custom providers choose their wire format", { param: "params.format" });
  const format: ProviderFormat = spec.choosesFormat
    ? (input.format ?? (current?.format as "chat" | "messages" | undefined) ?? "chat")
    : info.format;
  const settings = settingsFor(kind, input, current?.settings ?? {});
  return { baseUrl, country, format, settings };
}

/** Early refusal of an address the egress policy would refuse at call time (the call-time check is the one that counts). */
async function assertAddressAllowed(baseUrl: string | null): Promise<void> {
  const refused = baseUrl === null ? null : await checkEgressUrl(baseUrl);
  if (refused) throw badRequest(`params.baseUrl: this address is not allowed: ${refused}`, { param: "params.baseUrl" });
}

async function assertNameFree(deps: ProviderDeps, orgId: string, name: string, exceptId?: string) {
  const taken = (await deps.store.listProviderConfigs(orgId)).some((p) => p.name === name && p.id !== exceptId);
  if (taken)
    throw new ApiError(409, "conflict", `a provider named "${name}" already exists in this organization; choose another name`, {
      param: "params.name",
    });
}

export async function createProvider(
  deps: ProviderDeps,
  identity: Identity,
  actor: Actor,
  input: ProviderInput,
): Promise<ProviderConfigRecord> {
  const kind = input.provider ?? "";
  if (!isProviderKind(kind))
    throw badRequest(`params.provider: unknown provider kind "${kind.slice(0, 50)}"`, { param: "params.provider" });
  const orgId = identity.organization.id;
  checkProviderKindAllowed(identity.organization.tier, kind);
  const ownerUserId = await ownerFor(deps, identity, actor, input.scope ?? defaultScope(identity));
  const name = input.name ?? kind;
  const existing = await deps.store.listProviderConfigs(orgId);
  checkProviderCount(identity.organization.tier, existing.length);
  checkConfigurationBound(existing.length);
  await assertNameFree(deps, orgId, name);
  const credentials = credentialsFrom(kind, input);
  const fields = shape(deps, kind, input);
  await assertAddressAllowed(fields.baseUrl);
  const id = newId("prv");
  const now = deps.now();
  const rec: ProviderConfigRecord = {
    id,
    orgId,
    ownerUserId,
    provider: kind,
    name,
    ...fields,
    models: input.models ?? [],
    limits: input.limits ?? {},
    secretCiphertext: deps.box.seal(JSON.stringify(credentials), id),
    keyHint: hintOf(credentials),
    createdAt: now,
    updatedAt: now,
  };
  // The count above refuses early, with its figure; the store's conditional insert is the bound itself
  // (the tier's, or the node's), so creates racing past that count still stop there, refused alike.
  const max = Math.min(TIERS[identity.organization.tier].maxProviders, MAX_PROVIDER_CONFIGS);
  if (!(await deps.store.createProviderConfig(rec, max))) {
    checkProviderCount(identity.organization.tier, max);
    throw configurationBoundReached(max);
  }
  await deps.onProvidersChanged(orgId);
  await recordAudit(
    deps.store,
    orgId,
    actor,
    "provider.create",
    id,
    { provider: kind, name, scope: ownerUserId ? "user" : "organization", keyHint: rec.keyHint },
    now,
  );
  return rec;
}

/** Admins see all of the organization's providers; members the organization's and their own; a member key the organization's. */
export async function listProviders(deps: ProviderDeps, identity: Identity): Promise<ProviderConfigRecord[]> {
  const all = await deps.store.listProviderConfigs(identity.organization.id);
  if (identity.role === "admin") return all;
  const me = personOf(identity);
  return all.filter((p) => p.ownerUserId === null || (me !== null && p.ownerUserId === me));
}

export async function updateProvider(
  deps: ProviderDeps,
  identity: Identity,
  actor: Actor,
  id: string,
  input: ProviderInput,
): Promise<ProviderConfigRecord> {
  const current = await editable(deps, identity, actor, id);
  if (current.disabled)
    throw new ApiError(
      409,
      "conflict",
      `provider ${id.slice(0, 100)} was disabled (${current.disabled.reason}); its key and address are the former owner's: delete it with provider.delete and add the organization's own`,
      { param: "params.id" },
    );
  if (input.provider !== undefined && input.provider !== current.provider)
    throw badRequest("params.provider: the kind of a provider cannot change; create a new one", { param: "params.provider" });
  const kind = current.provider as ProviderKind;
  if (input.name !== undefined) await assertNameFree(deps, current.orgId, input.name, id);
  const fields = shape(deps, kind, input, current);
  if (input.baseUrl !== undefined) await assertAddressAllowed(fields.baseUrl);
  const rec: ProviderConfigRecord = {
    ...current,
    ...fields,
    ownerUserId: input.scope === undefined ? current.ownerUserId : await ownerFor(deps, identity, actor, input.scope),
    name: input.name ?? current.name,
    models: input.models ?? current.models,
    limits: input.limits ?? current.limits,
    updatedAt: deps.now(),
  };
  const rotates = input.apiKey !== undefined || input.accessKeyId !== undefined;
  if (rotates) {
    const credentials = credentialsFrom(kind, input);
    rec.secretCiphertext = deps.box.seal(JSON.stringify(credentials), id);
    rec.keyHint = hintOf(credentials);
  }
  await deps.store.updateProviderConfig(rec);
  await deps.onProvidersChanged(rec.orgId);
  await recordAudit(
    deps.store,
    rec.orgId,
    actor,
    "provider.update",
    id,
    { changed: Object.keys(input).filter((k) => !["apiKey", "secretAccessKey", "sessionToken"].includes(k)), keyRotated: rotates },
    rec.updatedAt,
  );
  return rec;
}

export async function deleteProvider(deps: ProviderDeps, identity: Identity, actor: Actor, id: string): Promise<void> {
  const rec = await editable(deps, identity, actor, id);
  await deps.store.deleteProviderConfig(id);
  await deps.onProvidersChanged(rec.orgId);
  await recordAudit(deps.store, rec.orgId, actor, "provider.delete", id, { provider: rec.provider, name: rec.name }, deps.now());
}
