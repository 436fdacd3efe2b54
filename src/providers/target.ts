/** Where one call goes: the provider, its address and credentials, and the model id it expects. */
import type { ProviderFormat } from "../domain/types.ts";
import type { ProviderCredentials } from "./credentials.ts";
import type { CatalogModel } from "./catalog/models.ts";
import type { ProviderKind, ProviderKindInfo } from "./catalog/provider-kinds.ts";
import { type SettingsMap, specFor } from "./specs.ts";
import { NO_SETTINGS } from "./spec.ts";

interface TargetOf<K extends ProviderKind> {
  kind: K;
  info: ProviderKindInfo;
  /** The wire format spoken (the kind's, or a custom provider's own choice). */
  format: ProviderFormat;
  /** Where the provider runs (ISO alpha-2): the configuration's, else the kind's. */
  country: string | null;
  /** The configuration's name (or the kind, for a per-request key): used in `name/model`, usage and errors. */
  providerName: string;
  /** null for a per-request key (`x-gw-provider-key`), which is never stored. */
  configId: string | null;
  baseUrl: string;
  credentials: ProviderCredentials;
  /** The kind's own non-secret settings, typed by its spec (Azure api version and deployments, Bedrock region). */
  settings: SettingsMap[K];
  /** The model id as the provider knows it (without a `name/` prefix). */
  model: string;
  /** The catalog entry, when the catalog prices this model. */
  catalogModel: CatalogModel | undefined;
  /** A sandbox key's call: the simulator answers it in the kind's format, and nothing is sent. */
  simulated?: true;
}

/** A target of any kind; narrowing `kind` narrows `settings`. */
export type Target = { [K in ProviderKind]: TargetOf<K> }[ProviderKind];

/** The stored configuration a target comes from. */
export interface TargetConfig {
  id: string;
  name: string;
  format: ProviderFormat;
  country: string | null;
  settings: Readonly<Record<string, unknown>>;
}

export interface TargetParts {
  info: ProviderKindInfo;
  baseUrl: string;
  credentials: ProviderCredentials;
  model: string;
  catalogModel: CatalogModel | undefined;
  /** The configuration; none for a per-request key or the sandbox's stand-in, which take the kind's format, country and name. */
  config?: TargetConfig;
  /** Where it runs, when the caller has worked it out (resolution takes a vendor's from the catalog, whatever the record says). */
  country?: string | null;
}

/**
 * The one constructor of a Target: settings are read through the kind's spec, so they
 * arrive typed. The cast is the one place TypeScript cannot follow that a kind and the
 * settings its own spec read belong together.
 */
export function targetFor(p: TargetParts): Target {
  const kind = p.info.kind;
  const c = p.config;
  return {
    kind,
    info: p.info,
    format: c ? c.format : p.info.format,
    country: p.country !== undefined ? p.country : c ? c.country : p.info.country,
    providerName: c ? c.name : kind,
    configId: c ? c.id : null,
    baseUrl: p.baseUrl,
    credentials: p.credentials,
    // No stored settings (most configurations): the shared empty set, not a new object a call.
    settings: specFor(kind).readSettings(c?.settings ?? NO_SETTINGS),
    model: p.model,
    catalogModel: p.catalogModel,
  } as Target;
}

/** The name a simulated call's answer and usage go under. */
export const SANDBOX_PROVIDER = "sandbox";

/** Who answered, as `provider/model` (the `x-gw-provider` header): the configuration's name, or the sandbox's for a simulated call. */
export function servedBy(t: Target): string {
  return `${t.simulated ? SANDBOX_PROVIDER : t.providerName}/${t.model}`;
}
