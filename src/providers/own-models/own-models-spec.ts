/**
 * The caller's own models: a server at an address the operator gives, so the operator
 * also declares the country where it runs. A self-hosted server (Ollama, vLLM) often
 * takes no key; a custom API speaks the wire format its configuration chooses. Neither
 * renames a call's output limit: vLLM takes either name, Ollama's compatible server only
 * `max_tokens` (ollama/ollama openai/openai.go `ChatCompletionRequest`), and a proxy to
 * OpenAI's reasoning models only `max_completion_tokens`, so the caller, who knows the
 * server, chooses; a translated Responses call writes `max_tokens`, which the first two read.
 */
import { plainSpec } from "../spec.ts";

const OWN = { tierClass: "own-models", declaresCountry: true, chatMaxTokens: null } as const;

export const selfHostedSpec = plainSpec({ ...OWN, keyOptional: true, choosesFormat: false });

export const customSpec = plainSpec({ ...OWN, keyOptional: false, choosesFormat: true });
