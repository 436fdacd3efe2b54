/**
 * The vendors that speak chat completions at a public address (OpenAI, Google's and
 * Cohere's compatibility endpoints, Mistral, xAI, the inference hosts): a key, the
 * vendor's own country and format, and no settings.
 */
import { plainSpec } from "../spec.ts";

export const vendorSpec = plainSpec({ tierClass: "vendor", keyOptional: false, declaresCountry: false, choosesFormat: false });
