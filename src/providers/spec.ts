/**
 * A provider kind's spec: everything that differs between kinds outside the wire
 * format, in one typed object beside the kind's adapter. The configuration service
 * asks it how to read a `provider.create` input, the tier policy asks its tier class,
 * and the adapters ask it where an operation goes. One registry (specs.ts) maps each
 * kind to its spec, so no shared code checks a kind by name.
 */
import { badRequest } from "../lib/errors.ts";
import type { ProviderCredentials } from "./credentials.ts";

/** What a tier must include for a kind: any vendor, the caller's own models (self-hosted, custom), or a cloud platform. */
export type TierClass = "vendor" | "own-models" | "cloud-platform";

/** The secret fields of `provider.create` / `provider.update`. */
export interface CredentialInput {
  apiKey?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

/** The non-secret, kind-specific fields of `provider.create` / `provider.update`. */
export interface SettingsInput {
  region?: string;
  apiVersion?: string;
  deployments?: Record<string, string>;
}

/**
 * The name a chat body's output limit goes under. OpenAI deprecated `max_tokens` for
 * `max_completion_tokens`, which its reasoning models (o-series, gpt-5) require
 * (openai/openai-node src/resources/chat/completions/completions.ts,
 * `ChatCompletionCreateParamsBase.max_tokens`); other vendors and Ollama document only
 * `max_tokens` (ollama/ollama openai/openai.go `ChatCompletionRequest`).
 */
export type ChatMaxTokensName = "max_tokens" | "max_completion_tokens";

/** What a spec reads of a configuration: its address and its settings. */
export interface Configured<S> {
  baseUrl: string;
  settings: S;
}

/** What a URL builder needs of a call's target. */
export interface Endpoint<S> extends Configured<S> {
  model: string;
}

/** The kinds without settings of their own. */
export type NoSettings = Readonly<Record<string, never>>;
export const NO_SETTINGS: NoSettings = Object.freeze({});

export interface ProviderSpec<S> {
  readonly tierClass: TierClass;
  /** The server often takes no key at all (Ollama, vLLM): a configuration may leave the key out. */
  readonly keyOptional: boolean;
  /** The operator declares the country where it runs (there is no vendor's home to take it from). */
  readonly declaresCountry: boolean;
  /** The configuration chooses its wire format (`chat` or `messages`) instead of taking the kind's. */
  readonly choosesFormat: boolean;
  /**
   * The configuration serves the Responses API (`POST responses`) itself, so `/v1/responses`
   * is forwarded as written (stored state and built-in tools included) instead of being
   * translated to chat completions.
   */
  offersResponses(at: Configured<S>): boolean;
  /**
   * The one name this configuration's chat API takes the output limit under (its settings
   * may decide: an old API version), or null where the kind's servers differ and the
   * caller's name is kept.
   */
  chatMaxTokens(at: Configured<S>): ChatMaxTokensName | null;
  /** The model a call's body names: the provider's model id, unless the kind names something else there (an Azure deployment). */
  modelInBody(at: Endpoint<S>): string;
  /** The credentials in a create or rotate input; a 400 naming the missing field otherwise. */
  credentials(input: CredentialInput): ProviderCredentials;
  /** The settings fields this kind takes; the registry refuses the others before `settingsFrom` runs. */
  readonly settingsFields: readonly (keyof SettingsInput)[];
  /** The settings to store, from the input over the current ones (a 400 for a bad value). */
  settingsFrom(input: SettingsInput, current: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** The typed settings of a stored configuration (defaults filled in). */
  readSettings(stored: Readonly<Record<string, unknown>>): S;
  /** The address of one operation (`chat/completions`, `v1/messages`, `model/{id}/invoke`): the address joined to it, unless the kind addresses it otherwise. */
  url(at: Endpoint<S>, operation: string): string;
}

/** Every settings field a kind may take. */
export const SETTINGS_FIELDS = ["region", "apiVersion", "deployments"] as const satisfies readonly (keyof SettingsInput)[];

/** An API key, as most kinds take it; an empty one stands for "no key" where the key is optional. */
export function apiKeyCredentials(
  input: CredentialInput,
  keyOptional: boolean,
  missing = "params.apiKey: the provider key is required",
): ProviderCredentials {
  if (!input.apiKey && keyOptional && input.accessKeyId === undefined) return { type: "api-key", apiKey: "" };
  if (!input.apiKey) throw badRequest(missing, { param: "params.apiKey" });
  return { type: "api-key", apiKey: input.apiKey };
}

/** The provider's model id: what most kinds' bodies name. */
export const modelId = (at: Endpoint<unknown>): string => at.model;

/** The address joined to the operation: the default URL builder. */
export const joinedUrl = (at: Endpoint<unknown>, operation: string): string => `${at.baseUrl}/${operation}`;

/** A spec for a kind with no settings, differing only in its flags. */
export function plainSpec(
  flags: Pick<ProviderSpec<NoSettings>, "tierClass" | "keyOptional" | "declaresCountry" | "choosesFormat"> & {
    offersResponses?: boolean;
    chatMaxTokens?: ChatMaxTokensName | null;
  },
): ProviderSpec<NoSettings> {
  const { offersResponses = false, chatMaxTokens = "max_tokens", ...rest } = flags;
  return {
    ...rest,
    offersResponses: () => offersResponses,
    chatMaxTokens: () => chatMaxTokens,
    modelInBody: modelId,
    credentials: (input) => apiKeyCredentials(input, flags.keyOptional),
    settingsFields: [],
    settingsFrom: (_input, current) => ({ ...current }),
    readSettings: () => NO_SETTINGS,
    url: joinedUrl,
  };
}
