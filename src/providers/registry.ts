/**
 * The adapter registry: which adapter speaks each wire format. Together with the
 * catalog (which gives each kind its format) this is the only place that maps
 * providers to code.
 */
import type { ProviderFormat } from "../domain/types.ts";
import type { ProviderAdapter } from "./adapter.ts";
import { openAiCompatibleAdapter } from "./openai-compatible/openai-adapter.ts";

const ADAPTERS: Record<ProviderFormat, ProviderAdapter | undefined> = {
  chat: openAiCompatibleAdapter,
  // The messages family (the vendor directly and the cloud platform) registers here.
  messages: undefined,
  bedrock: undefined,
};

export function adapterFor(format: ProviderFormat): ProviderAdapter | undefined {
  return ADAPTERS[format];
}
