/**
 * The spec registry: which spec each provider kind has. With the adapter registry
 * (format -> adapter) this is the only place that maps provider kinds to code.
 */
import { anthropicSpec } from "./anthropic/anthropic-spec.ts";
import { type AzureSettings, azureSpec } from "./azure/azure-spec.ts";
import { type BedrockSettings, bedrockSpec } from "./bedrock/bedrock-spec.ts";
import { PROVIDER_KINDS, type ProviderKind } from "./catalog/provider-kinds.ts";
import { openAiSpec, vendorSpec } from "./openai-compatible/vendor-spec.ts";
import { customSpec, selfHostedSpec } from "./own-models/own-models-spec.ts";
import { badRequest } from "../lib/errors.ts";
import { type ChatMaxTokensName, type Endpoint, type NoSettings, type ProviderSpec, SETTINGS_FIELDS, type SettingsInput } from "./spec.ts";

/** Each kind's typed settings. */
export type SettingsMap = {
  [K in ProviderKind]: K extends "azure-openai" ? AzureSettings : K extends "bedrock" ? BedrockSettings : NoSettings;
};

type SpecMap = { [K in ProviderKind]: ProviderSpec<SettingsMap[K]> };

const SPECS: SpecMap = {
  openai: openAiSpec,
  anthropic: anthropicSpec,
  google: vendorSpec,
  mistral: vendorSpec,
  cohere: vendorSpec,
  xai: vendorSpec,
  ai21: vendorSpec,
  deepseek: vendorSpec,
  groq: vendorSpec,
  together: vendorSpec,
  fireworks: vendorSpec,
  openrouter: vendorSpec,
  perplexity: vendorSpec,
  "azure-openai": azureSpec,
  bedrock: bedrockSpec,
  "self-hosted": selfHostedSpec,
  custom: customSpec,
};

export function specFor<K extends ProviderKind>(kind: K): SpecMap[K] {
  return SPECS[kind];
}

/** A target's kind, with what its spec reads of the configuration. */
type ConfiguredAs<K extends ProviderKind> = { kind: K; baseUrl: string; settings: SettingsMap[K] };

/** Whether the target's configuration serves the Responses API itself (forwarded natively, not translated). */
export function offersResponses<K extends ProviderKind>(t: ConfiguredAs<K>): boolean {
  return SPECS[t.kind].offersResponses(t);
}

/** The model a call's body names for this target (an Azure v1 call names its deployment there). */
export function modelInBody<K extends ProviderKind>(t: ConfiguredAs<K> & { model: string }): string {
  return SPECS[t.kind].modelInBody(t);
}

/** Where one operation of a call goes, as the target's kind addresses it. */
export function endpointUrl<K extends ProviderKind>(t: Endpoint<SettingsMap[K]> & { kind: K }, operation: string): string {
  return SPECS[t.kind].url(t, operation);
}

/** The name the target's chat API takes a call's output limit under (`max_tokens` or `max_completion_tokens`); null: as the caller wrote it. */
export function chatMaxTokensName<K extends ProviderKind>(t: ConfiguredAs<K>): ChatMaxTokensName | null {
  return SPECS[t.kind].chatMaxTokens(t);
}

/** The kinds whose spec takes a settings field, for the 400 that names them. */
const TAKEN_BY = Object.fromEntries(
  SETTINGS_FIELDS.map((field) => [field, PROVIDER_KINDS.filter((k) => SPECS[k].settingsFields.includes(field)).join(" and ")]),
) as Record<keyof SettingsInput, string>;

/** The settings to store for a configuration of this kind: a 400 for a field of another kind's, else the kind's own reading. */
export function settingsFor(kind: ProviderKind, input: SettingsInput, current: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const spec = SPECS[kind];
  for (const field of SETTINGS_FIELDS) {
    if (input[field] !== undefined && !spec.settingsFields.includes(field)) {
      throw badRequest(`params.${field}: only ${TAKEN_BY[field]} providers take ${field}`, { param: `params.${field}` });
    }
  }
  return spec.settingsFrom(input, current);
}
