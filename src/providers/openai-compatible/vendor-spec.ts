/**
 * The vendors that speak chat completions at a public address (OpenAI, Google's and
 * Cohere's compatibility endpoints, Mistral, xAI, the inference hosts): a key, the
 * vendor's own country and format, and no settings.
 */
import { plainSpec } from "../spec.ts";

const VENDOR = { tierClass: "vendor", keyOptional: false, declaresCountry: false, choosesFormat: false } as const;

export const vendorSpec = plainSpec(VENDOR);

/**
 * OpenAI itself also serves the Responses API. The compatibility endpoints of the other
 * vendors do not (or not fully), nor is it known of a self-hosted server or of Azure's
 * deployment addresses, so those are translated to chat completions. Its chat API takes
 * the output limit as `max_completion_tokens`, which every model accepts and its reasoning
 * models require; the other compatible vendors take `max_tokens` (the spec's default; Mistral
 * and DeepSeek document only that name).
 */
export const openAiSpec = plainSpec({ ...VENDOR, offersResponses: true, chatMaxTokens: "max_completion_tokens" });
