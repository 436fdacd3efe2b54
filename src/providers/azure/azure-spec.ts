/**
 * Azure OpenAI: the chat-completions wire at an operator's resource, which addresses a
 * deployment rather than a model, in one of two ways. By default its deployment paths
 * (`/openai/deployments/{deployment}/{op}?api-version=...`), the data-plane version in every
 * URL. Or its v1 API (GA 2025): `/openai/v1/{op}` with no version, the deployment named
 * in the body's `model`, as OpenAI's own API names a model, and the Responses API served
 * there too (Azure OpenAI's "API version lifecycle" page; the REST reference, v1).
 */
import { apiKeyCredentials, type ChatMaxTokensName, type Configured, type Endpoint, type ProviderSpec } from "../spec.ts";

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

/** The v1 API's path under the resource, which a base URL copied from the portal already ends in. */
const V1_PATH = /\/openai\/v1\/?$/;

/** The configuration uses the v1 API: `apiVersion: "v1"`, or a base URL ending in `/openai/v1`; else the deployment paths. */
export function usesV1(at: Configured<AzureSettings>): boolean {
  return at.settings.apiVersion === "v1" || V1_PATH.test(at.baseUrl);
}

/** The model's deployment: its entry in `deployments`, else the model's own name. */
function deploymentOf(at: Endpoint<AzureSettings>): string {
  // Own entries only: a model named `constructor` would otherwise read Object's function as its deployment.
  return Object.hasOwn(at.settings.deployments, at.model) ? (at.settings.deployments[at.model] as string) : at.model;
}

/** `models` lists the resource's models; every other operation goes to the model's deployment (by path, or in the v1 body). */
function azureUrl(at: Endpoint<AzureSettings>, operation: string): string {
  if (usesV1(at)) return `${at.baseUrl.replace(V1_PATH, "")}/openai/v1/${operation}`;
  const version = `api-version=${encodeURIComponent(at.settings.apiVersion)}`;
  if (operation === "models") return `${at.baseUrl}/openai/models?${version}`;
  return `${at.baseUrl}/openai/deployments/${encodeURIComponent(deploymentOf(at))}/${operation}?${version}`;
}

/**
 * `max_completion_tokens` from the data-plane version that brought the reasoning models
 * (2024-09-01-preview; the GA 2024-10-21 has it, as have the v1 API, `latest` and `preview`),
 * which refuse `max_tokens`; a version older than that knows only `max_tokens`.
 */
function azureMaxTokens(at: Configured<AzureSettings>): ChatMaxTokensName {
  const dated = /^\d{4}-\d{2}-\d{2}/.exec(at.settings.apiVersion)?.[0];
  return !usesV1(at) && dated !== undefined && dated < "2024-09-01" ? "max_tokens" : "max_completion_tokens";
}

export const azureSpec: ProviderSpec<AzureSettings> = {
  tierClass: "cloud-platform",
  keyOptional: false,
  declaresCountry: false,
  choosesFormat: false,
  // The v1 API serves the Responses API at the resource; the deployment paths are translated to chat completions.
  offersResponses: usesV1,
  chatMaxTokens: azureMaxTokens,
  // The v1 API takes the deployment in the body; the deployment paths take it in the path, and the body's model is not read.
  modelInBody: (at) => (usesV1(at) ? deploymentOf(at) : at.model),
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
