/**
 * The caller's own models: a server at an address the operator gives, so the operator
 * also declares the country where it runs. A self-hosted server (Ollama, vLLM) often
 * takes no key; a custom API speaks the wire format its configuration chooses.
 */
import { plainSpec } from "../spec.ts";

export const selfHostedSpec = plainSpec({ tierClass: "own-models", keyOptional: true, declaresCountry: true, choosesFormat: false });

export const customSpec = plainSpec({ tierClass: "own-models", keyOptional: false, declaresCountry: true, choosesFormat: true });
