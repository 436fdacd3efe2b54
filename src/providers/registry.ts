/**
 * The adapter registry: which adapter speaks each provider format. Together with the
 * catalog (which gives each kind its format) this is the only place that maps
 * providers to code.
 */
import type { ProviderFormat } from "../domain/types.ts";
import type { ProviderAdapter } from "./adapter.ts";
import { messagesAdapter } from "./anthropic/messages-adapter.ts";
import { bedrockAdapter } from "./bedrock/bedrock-adapter.ts";
import { openAiCompatibleAdapter } from "./openai-compatible/openai-adapter.ts";

const ADAPTERS = {
  chat: openAiCompatibleAdapter,
  messages: messagesAdapter,
  bedrock: bedrockAdapter,
} satisfies Record<ProviderFormat, ProviderAdapter>;

export function adapterFor(format: ProviderFormat): ProviderAdapter {
  return ADAPTERS[format];
}
