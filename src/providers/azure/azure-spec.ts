/**
 * Azure OpenAI: the chat-completions wire at an operator's resource, which addresses a
 * deployment rather than a model (`/openai/deployments/{deployment}/{op}`) and names
 * its data-plane version in every URL.
 */
import { apiKeyCredentials, type ChatMaxTokensName, type Endpoint, type ProviderSpec } from "../spec.ts";

/** The Azure OpenAI data-plane version used when the configuration does not name one. */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

export interface AzureSettings {
  apiVersion: string;
  /** Model id -> deployment name; a model not listed is taken as its own deployment name. */
  deployments: Readonly<Record<string, string>>;
}

function isNameMap(v: unknown): v is Record<string, string> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((name) => typeof name === "string");
}

/** `models` lists the resource's models; every other operation goes to the model's deployment. */
function azureUrl(at: Endpoint<AzureSettings>, operation: string): string {
  const version = `api-version=${encodeURIComponent(at.settings.apiVersion)}`;
  if (operation === "models") return `${at.baseUrl}/openai/models?${version}`;
  // Own entries only: a model named `constructor` would otherwise read Object's function as its deployment.
  const deployment = Object.hasOwn(at.settings.deployments, at.model) ? (at.settings.deployments[at.model] as string) : at.model;
  return `${at.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}/${operation}?${version}`;
}

/**
 * `max_completion_tokens` from the data-plane version that brought the reasoning models
 * (2024-09-01-preview; the GA 2024-10-21 has it, as have `v1`, `latest` and `preview`),
 * which refuse `max_tokens`; a version older than that knows only `max_tokens`.
 */
function azureMaxTokens(settings: AzureSettings): ChatMaxTokensName {
  const dated = /^\d{4}-\d{2}-\d{2}/.exec(settings.apiVersion)?.[0];
  return dated !== undefined && dated < "2024-09-01" ? "max_tokens" : "max_completion_tokens";
}

export const azureSpec: ProviderSpec<AzureSettings> = {
  tierClass: "cloud-platform",
  keyOptional: false,
  declaresCountry: false,
  choosesFormat: false,
  offersResponses: false,
  chatMaxTokens: azureMaxTokens,
  credentials: (input) => apiKeyCredentials(input, false),
  settingsFields: ["apiVersion", "deployments"],
  settingsFrom(input, current) {
    const settings = { ...current };
    if (input.apiVersion !== undefined) settings.apiVersion = input.apiVersion;
    if (input.deployments !== undefined) settings.deployments = input.deployments;
    return settings;
  },
  readSettings: (stored) => ({
    apiVersion: typeof stored.apiVersion === "string" ? stored.apiVersion : AZURE_DEFAULT_API_VERSION,
    deployments: isNameMap(stored.deployments) ? stored.deployments : {},
  }),
  url: azureUrl,
};
