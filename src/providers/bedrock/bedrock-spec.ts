/**
 * Amazon Bedrock: AWS credentials (or a Bedrock API key), a region, and the region's
 * runtime address unless the configuration gives one.
 */
import { badRequest } from "../../lib/errors.ts";
import type { ProviderCredentials } from "../credentials.ts";
import { apiKeyCredentials, type CredentialInput, modelId, type ProviderSpec } from "../spec.ts";

export interface BedrockSettings {
  region: string;
}

const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

function bedrockCredentials(input: CredentialInput): ProviderCredentials {
  if (input.accessKeyId === undefined)
    return apiKeyCredentials(input, false, "params: give apiKey (a Bedrock API key) or accessKeyId and secretAccessKey");
  if (!input.secretAccessKey) throw badRequest("params.secretAccessKey: required with accessKeyId", { param: "params.secretAccessKey" });
  return {
    type: "aws",
    accessKeyId: input.accessKeyId,
    secretAccessKey: input.secretAccessKey,
    ...(input.sessionToken ? { sessionToken: input.sessionToken } : {}),
  };
}

export const bedrockSpec: ProviderSpec<BedrockSettings> = {
  tierClass: "cloud-platform",
  keyOptional: false,
  declaresCountry: false,
  choosesFormat: false,
  offersResponses: () => false,
  modelInBody: modelId,
  // Spoken to in the messages format: a chat body's limit is read under either name by the translation.
  chatMaxTokens: () => "max_tokens",
  credentials: bedrockCredentials,
  settingsFields: ["region"],
  settingsFrom(input, current) {
    const region = input.region ?? current.region;
    if (typeof region !== "string" || !REGION.test(region))
      throw badRequest("params.region: a Bedrock provider needs its AWS region, such as us-east-1", { param: "params.region" });
    return { ...current, region };
  },
  readSettings: (stored) => ({ region: String(stored.region) }),
  url: (at, operation) => `${at.baseUrl || `https://bedrock-runtime.${at.settings.region}.amazonaws.com`}/${operation}`,
};
