/** Where one call goes: the provider, its address and credentials, and the model id it expects. */
import type { ProviderFormat } from "../domain/types.ts";
import type { ProviderCredentials } from "./credentials.ts";
import type { CatalogModel } from "./catalog/models.ts";
import type { ProviderKind, ProviderKindInfo } from "./catalog/provider-kinds.ts";

export interface Target {
  kind: ProviderKind;
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
  /** Provider-specific non-secret settings (Azure api version and deployments, Bedrock region). */
  settings: Record<string, unknown>;
  /** The model id as the provider knows it (without a `name/` prefix). */
  model: string;
  /** The catalog entry, when the catalog prices this model. */
  catalogModel: CatalogModel | undefined;
}
