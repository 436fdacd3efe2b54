/**
 * Embeddings input given as token ids, read as the text it stands for. The scanner reads
 * text, so ids are decoded with the target model's own vocabulary and scanned like text
 * input; a model whose vocabulary the gateway does not know cannot have its ids read, so
 * they are refused rather than sent unscanned. Redaction rewrites a decoded text and
 * encodes it back with the same vocabulary.
 */
import { ApiError } from "../../lib/errors.ts";
import { type Vocabulary, vocabularyOfModel } from "../../lib/token-estimate.ts";
import type { Catalog } from "../../providers/catalog/catalog.ts";
import type { Target } from "../../providers/target.ts";
import { servedModel } from "../served-model.ts";
import type { Json, TextSlot } from "./text-walk.ts";

/**
 * OpenAI's own limit on one embeddings request (tokens over all inputs). It bounds the
 * decode (linear) and the text it makes: a token is at most 128 characters, so at most
 * 38.4 million, the order of the body limit's text (32 MiB).
 */
export const MAX_TOKEN_IDS = 300_000;

/** The kinds that serve OpenAI's own models, whose ids are in OpenAI's vocabularies. */
const OPENAI_KINDS = new Set(["openai", "azure-openai"]);

/**
 * The vocabulary a target's model reads ids with: an OpenAI model the catalog lists (or, for
 * an Azure deployment called by its own name, the listed model its configuration maps to it:
 * served-model.ts), mapped by gpt-tokenizer; else unknown.
 */
export function targetVocabulary(target: Target | undefined, catalog: Catalog): Vocabulary | undefined {
  if (!target || !OPENAI_KINDS.has(target.kind)) return undefined;
  const listed = servedModel(target, catalog);
  return listed?.provider === "openai" ? vocabularyOfModel(listed.id) : undefined;
}

/**
 * Refuses a fallback `target` whose model reads ids with another vocabulary than the one the
 * ids were scanned in (`scanned`: the first target's): the ids would reach it as text no
 * scan saw. Text input passes.
 */
export function checkTargetVocabulary(body: Json, scanned: Vocabulary | undefined, target: Target, catalog: Catalog): void {
  if (!idArrays(body)) return;
  if (scanned && targetVocabulary(target, catalog)?.name === scanned.name) return;
  throw refuse(
    `input is token ids, scanned as ${scanned?.name ?? "no"} vocabulary's text, and ${target.model} (${target.providerName}) reads ids with another; send the input as text.`,
    "unknown_vocabulary",
  );
}

const refuse = (message: string, reason: string, param = "input") =>
  new ApiError(400, "invalid_request", message, { param, details: { reason } });

/** The token-id inputs (a flat array of ids, or an array of such arrays), each with its path and how to replace it; null for text. */
function idArrays(body: Json): { path: string; ids: number[]; put: (ids: number[]) => void }[] | null {
  const input = body.input;
  if (!Array.isArray(input) || input.length === 0) return null;
  if (typeof input[0] === "number") return [{ path: "input", ids: input as number[], put: (next) => (body.input = next) }];
  if (!Array.isArray(input[0])) return null;
  return (input as number[][]).map((ids, i) => ({ path: `input.${i}`, ids, put: (next) => (input[i] = next) }));
}

/**
 * One slot per token-id input, its text decoded; none when the input is text. Throws a
 * 400 for ids with no known vocabulary, ids that are not ones (negative, fractional,
 * beyond or in a gap of the vocabulary) and more ids than `MAX_TOKEN_IDS`.
 */
export function tokenIdTexts(body: Json, vocabulary: Vocabulary | undefined): TextSlot[] {
  const inputs = idArrays(body);
  if (!inputs) return [];
  if (!vocabulary)
    throw refuse(
      `input is token ids, which the gateway cannot read for ${String(body.model)} (its vocabulary is unknown here), and every input is scanned; send the input as text.`,
      "unknown_vocabulary",
    );
  let total = 0;
  for (const { path, ids } of inputs) {
    // The schema lets only uniform arrays through; a body that reaches here another way is refused, not misread.
    if (!Array.isArray(ids)) throw refuse(`${path} is not an array of token ids, as the other inputs are.`, "invalid_token_id", path);
    total += ids.length;
    if (total > MAX_TOKEN_IDS) throw refuse(`input holds more than ${MAX_TOKEN_IDS} token ids.`, "too_many_token_ids");
    for (const id of ids)
      if (!Number.isSafeInteger(id) || id < 0) throw refuse(`${path} holds ${id}, which is not a token id.`, "invalid_token_id", path);
  }
  return inputs.map(({ path, ids, put }) => {
    let text: string;
    try {
      text = vocabulary.decode(ids);
    } catch {
      throw refuse(`${path} holds a token id that ${vocabulary.name}, the model's vocabulary, does not have.`, "invalid_token_id", path);
    }
    return { text, path, where: path, injection: false, set: (redacted: string) => put(vocabulary.encode(redacted)) };
  });
}
