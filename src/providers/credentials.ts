/**
 * The secret part of a provider configuration, as sealed at rest. One shape per auth
 * style: an API key for most vendors, or AWS credentials for the cloud platform.
 */
export type ProviderCredentials =
  | { type: "api-key"; apiKey: string }
  | { type: "aws"; accessKeyId: string; secretAccessKey: string; sessionToken?: string };

/** The part of a credential that may be shown (`keyHint`) is computed from this value. */
export function hintSource(c: ProviderCredentials): string {
  return c.type === "api-key" ? c.apiKey : c.accessKeyId;
}

/** Every secret value of a credential: cut out of anything a provider says back (its error bodies may quote them). */
export function secretValues(c: ProviderCredentials): string[] {
  return c.type === "api-key" ? [c.apiKey] : [c.secretAccessKey, c.sessionToken ?? ""];
}
