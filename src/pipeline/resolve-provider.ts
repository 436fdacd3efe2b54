/**
 * Stage 4: which provider, key and model id serve this call. Model resolution, in
 * order: `name/model` (a configured provider's name, or a kind); the cloud platform's
 * ids (`anthropic.*`, also with an inference-profile prefix: `us.anthropic.*`); the
 * catalog; models declared by self-hosted and custom providers; the vendors'
 * model-family patterns. Key resolution (services/provider-access.ts): for a service
 * account the organization's providers, then its creator's; for a user their own,
 * then the organization's; a request that names a side (`context.scope`) only that
 * side's. `x-gw-provider-key` replaces the stored
 * key for one call and is never kept; it goes to the address of the caller's
 * configured provider of that kind when there is one, else the vendor's.
 */
import { ApiError, badRequest } from "../lib/errors.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import { isProviderKind, type ProviderKind } from "../providers/catalog/provider-kinds.ts";
import { providerCountry } from "../policy/provider-authorization.ts";
import type { Identity, ProviderSide } from "../domain/identity.ts";
import { usableProviders } from "../services/provider-access.ts";
import type { LiveProvider, ProviderDirectory } from "../state/provider-directory.ts";
import type { ResolvedTarget } from "./authorize.ts";
import { PLATFORM_MODEL_ID } from "../providers/bedrock/model-ids.ts";
import { targetFor } from "../providers/target.ts";

export interface ResolveDeps {
  catalog: Catalog;
  directory: ProviderDirectory;
}

interface Wanted {
  kind: ProviderKind;
  model: string;
  /** A specific configuration, when the model named it (`name/model`) or declared the model. */
  provider?: LiveProvider;
}

function wantedFor(deps: ResolveDeps, usable: LiveProvider[], id: string, perRequestKind: ProviderKind | null): Wanted {
  const slash = id.indexOf("/");
  if (slash > 0) {
    const prefix = id.slice(0, slash);
    const rest = id.slice(slash + 1);
    const named = usable.find((p) => p.record.name === prefix);
    if (named && rest) return { kind: named.kind, model: rest, provider: named };
    if (isProviderKind(prefix) && rest && (perRequestKind === prefix || usable.some((p) => p.kind === prefix)))
      return { kind: prefix, model: rest };
  }
  if (PLATFORM_MODEL_ID.test(id)) return { kind: "bedrock", model: id };
  const entry = deps.catalog.model(id);
  if (entry) return { kind: entry.provider, model: id };
  const declaring = usable.find((p) => p.record.models.includes(id));
  if (declaring) return { kind: declaring.kind, model: id, provider: declaring };
  const vendor = deps.catalog.vendorFor(id);
  if (vendor) return { kind: vendor, model: id };
  if (perRequestKind) return { kind: perRequestKind, model: id };
  throw new ApiError(
    404,
    "model_not_found",
    `The model "${id.slice(0, 200)}" is not in the catalog and no configured provider declares it; name a provider as "<provider>/<model>".`,
    { param: "model" },
  );
}

/** Where the call looked for a provider, as the refusal says it. */
const WHERE = {
  both: "for you or your organization",
  organization: 'for your organization (the request\'s context.scope is "organization")',
  user: 'for you (the request\'s context.scope is "user")',
} as const;

function perRequestKindOf(headers: Headers): ProviderKind | null {
  const raw = headers.get("x-gw-provider");
  if (raw === null) return null;
  if (!isProviderKind(raw)) throw badRequest(`x-gw-provider: unknown provider kind "${raw.slice(0, 50)}"`, { param: "x-gw-provider" });
  return raw;
}

/** The target for a model name; at once when the organization's providers are in memory (a refusal is then thrown at once too). */
export function resolveTarget(deps: ResolveDeps, identity: Identity, model: string, headers: Headers): MaybePromise<ResolvedTarget> {
  const perRequestKey = headers.get("x-gw-provider-key");
  const perRequestKind = perRequestKindOf(headers);
  const providers = deps.directory.get(identity.organization.id);
  // In memory (the usual call): no closure, no promise; a closure here would be built on every call.
  if (providers instanceof Promise) return targetOnceLoaded(deps, providers, identity, model, perRequestKey, perRequestKind);
  return targetAmong(deps, usableProviders(providers, identity), model, perRequestKey, perRequestKind, identity.providerSide);
}

async function targetOnceLoaded(
  deps: ResolveDeps,
  loading: Promise<LiveProvider[]>,
  identity: Identity,
  model: string,
  perRequestKey: string | null,
  perRequestKind: ProviderKind | null,
): Promise<ResolvedTarget> {
  return targetAmong(deps, usableProviders(await loading, identity), model, perRequestKey, perRequestKind, identity.providerSide);
}

function targetAmong(
  deps: ResolveDeps,
  usable: LiveProvider[],
  model: string,
  perRequestKey: string | null,
  perRequestKind: ProviderKind | null,
  side: ProviderSide | undefined,
): ResolvedTarget {
  const wanted = wantedFor(deps, usable, model, perRequestKind);
  const catalogModel = deps.catalog.model(wanted.model);

  if (perRequestKey !== null) {
    const kind = perRequestKind ?? wanted.kind;
    const info = deps.catalog.kind(kind);
    // The organization's own address for this kind (a proxy, a self-hosted endpoint) wins over the vendor's public one.
    const configured = (wanted.provider?.kind === kind ? wanted.provider : undefined) ?? usable.find((p) => p.kind === kind);
    const baseUrl = configured?.record.baseUrl ?? info.defaultBaseUrl;
    if (!baseUrl)
      throw badRequest(`x-gw-provider-key: ${kind} has no public address; configure it with provider.create instead`, {
        param: "x-gw-provider-key",
      });
    if (!perRequestKey.trim()) throw badRequest("x-gw-provider-key: empty", { param: "x-gw-provider-key" });
    const credentials = { type: "api-key" as const, apiKey: perRequestKey.trim() };
    if (!configured) return targetFor({ info, baseUrl, credentials, model: wanted.model, catalogModel });
    // The configuration's address, format, country and settings; never its key, and no configuration id: nothing is counted against it.
    const viaConfigured = targetFor({
      info,
      baseUrl,
      credentials,
      model: wanted.model,
      catalogModel,
      config: configured.record,
      country: providerCountry(deps.catalog, kind, configured.record),
    });
    return { ...viaConfigured, providerName: kind, configId: null };
  }

  const chosen = wanted.provider ?? usable.find((p) => p.kind === wanted.kind);
  if (!chosen) {
    throw new ApiError(
      400,
      "provider_not_configured",
      `No ${wanted.kind} provider is configured ${WHERE[side ?? "both"]}. Add your ${wanted.kind} key once with the gateway operation provider.create (provider: "${wanted.kind}"), or send it per request in x-gw-provider-key.`,
      {
        param: "model",
        details: { provider: wanted.kind, model: wanted.model },
      },
    );
  }
  const info = deps.catalog.kind(chosen.kind);
  const baseUrl = chosen.record.baseUrl ?? info.defaultBaseUrl ?? "";
  const target: ResolvedTarget = targetFor({
    info,
    baseUrl,
    credentials: chosen.credentials,
    model: wanted.model,
    catalogModel,
    config: chosen.record,
    // A vendor's country is the catalog's now (policy can change); only self-hosted and custom declare their own.
    country: providerCountry(deps.catalog, chosen.kind, chosen.record),
  });
  // Worked out when the organization's providers loaded; stage 5 looks it up by tier.
  target.authorization = chosen.authorization;
  target.limits = chosen.record.limits;
  return target;
}
