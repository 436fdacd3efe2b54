/**
 * The spec registry: which spec each provider kind has. With the adapter registry
 * (format -> adapter) this is the only place that maps provider kinds to code.
 */
import { anthropicSpec } from "./anthropic/anthropic-spec.ts";
import { type AzureSettings, azureSpec } from "./azure/azure-spec.ts";
import { type BedrockSettings, bedrockSpec } from "./bedrock/bedrock-spec.ts";
import type { ProviderKind } from "./catalog/provider-kinds.ts";
import { vendorSpec } from "./openai-compatible/vendor-spec.ts";
import { customSpec, selfHostedSpec } from "./own-models/own-models-spec.ts";
import type { Endpoint, NoSettings, ProviderSpec } from "./spec.ts";

/** Each kind's typed settings. */
export type SettingsMap = {
  [K in ProviderKind]: K extends "azure-openai" ? AzureSettings : K extends "bedrock" ? BedrockSettings : NoSettings;
};

type SpecMap = { [K in ProviderKind]: ProviderSpec<SettingsMap[K]> };

const SPECS: SpecMap = {
  openai: vendorSpec,
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

/** Where one operation of a call goes, as the target's kind addresses it. */
export function endpointUrl<K extends ProviderKind>(t: Endpoint<SettingsMap[K]> & { kind: K }, operation: string): string {
  return SPECS[t.kind].url(t, operation);
}
