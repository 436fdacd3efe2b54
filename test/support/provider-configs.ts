/**
 * The mock provider configured as a vendor: the provider.create params the end-to-end
 * tests give, one definition each, with `{mock}` standing for the mock's address until
 * `atMock` puts it in. A test that needs another key or name spreads one and overrides it.
 */

/** provider.create params with `{mock}` in `baseUrl` for the mock's address. */
export type ProviderAtMock = { provider: string; baseUrl: string } & Record<string, unknown>;

/** The mock as OpenAI (its OpenAI-format routes are under `/v1`). */
export const OPENAI_AT_MOCK: ProviderAtMock = { provider: "openai", apiKey: "sk-openai-1234567890", baseUrl: "{mock}/v1" };

/** The mock as Anthropic (its Messages route is `/v1/messages`, so the base is the mock itself). */
export const ANTHROPIC_AT_MOCK: ProviderAtMock = { provider: "anthropic", apiKey: "sk-ant-vendor-1234567890", baseUrl: "{mock}" };

/** The mock as Bedrock, with AWS's documented example credentials. */
export const BEDROCK_AT_MOCK: ProviderAtMock = {
  provider: "bedrock",
  region: "us-east-1",
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  baseUrl: "{mock}",
};

/** The mock as a self-hosted model server named `lab` (models the catalog does not list need a country to be routed). */
export const LAB_AT_MOCK: ProviderAtMock = {
  provider: "self-hosted",
  name: "lab",
  apiKey: "lab-key-123456",
  baseUrl: "{mock}/v1",
  country: "US",
};

/** `config` as provider.create params for the mock at `mockUrl`: its address put in, for the whole organization unless it says. */
export function atMock(config: ProviderAtMock, mockUrl: string): Record<string, unknown> {
  return { scope: "organization", ...config, baseUrl: config.baseUrl.replace("{mock}", mockUrl) };
}

/** Creates each configuration at the mock with `key`; a refused one fails the set-up, with the gateway's answer. */
export async function createProvidersAtMock(
  gw: { op(key: string, operation: string, params?: unknown): Promise<{ status: number; body: unknown }> },
  key: string,
  mockUrl: string,
  configs: readonly ProviderAtMock[],
): Promise<void> {
  for (const config of configs) {
    const r = await gw.op(key, "provider.create", atMock(config, mockUrl));
    if (r.status !== 200) throw new Error(`provider.create ${config.provider} answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
}
