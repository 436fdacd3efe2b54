/** Names that ask the router for a model (`gateway/auto`, a family `gpt-4o*`) where one model is meant: one test, one refusal. */
import { type ApiError, badRequest } from "../lib/errors.ts";
import { familyOf } from "../routing/family.ts";

/** The model that asks the router to choose among every candidate. */
export const AUTO_MODEL = "gateway/auto";

/** Whether the name asks for routing rather than naming one model. */
export const isRoutedName = (model: string): boolean => model === AUTO_MODEL || familyOf(model) !== null;

/**
 * Sent where one model is meant, a routed name reached the vendor as a literal model id
 * (which refuses it), priced at its family's ceiling. `instead` says what to do.
 */
export function routedNameRefused(where: string, model: string, instead: string): ApiError {
  return badRequest(`${where}: "${model.slice(0, 100)}" is routed, not a model; ${instead}`, { param: where });
}

/** The remedy where a list of fallback models was given (the header, the preference). */
export const NAME_FALLBACK_MODELS = "name models, or send it as the model with x-gw-route for routing with fallback";

/**
 * For the calls planned without the router (embeddings, `count_tokens`): a family or
 * `gateway/auto` would reach the vendor as a literal model id, which refuses it (the
 * counting call's vendor is the one the name resolves to, so it must be one model).
 */
export function refuseRoutedModel(model: string, endpoint: string): void {
  if (isRoutedName(model))
    throw routedNameRefused("model", model, `${endpoint} names one model (as the provider lists it); ask ai.models for them`);
}
