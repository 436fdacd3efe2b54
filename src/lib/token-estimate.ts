/**
 * Prompt-size estimates before a call is sent (cost quotes, spend reservations).
 * Counts with a real BPE tokenizer (o200k, the current OpenAI vocabulary): exact for
 * OpenAI models, a close estimate for the others. `promptTokenBound` is the cheap
 * ceiling (a byte-pair token covers at least one byte) that spend reservations try
 * first, so the tokenizer runs only for calls near a cap.
 */
import type { countTokens as CountTokens } from "gpt-tokenizer/encoding/o200k_base";

/**
 * The vocabulary adds about 45 MB to the process once loaded, and the request path needs it only
 * for calls near a spend cap (reserve-spend.ts), the context optimizer and a few estimates: it is
 * loaded on first use, or at start by `loadTokenizer` where a first use must not stall the node.
 */
let tokenizer: typeof CountTokens | undefined;

/** Loads the vocabulary now (a few hundred milliseconds of the loop): a node behind a load balancer does it before serving. */
export function loadTokenizer(): typeof CountTokens {
  tokenizer ??= (require("gpt-tokenizer/encoding/o200k_base") as { countTokens: typeof CountTokens }).countTokens;
  return tokenizer;
}

const countTokens: typeof CountTokens = (text, options) => (tokenizer ?? loadTokenizer())(text, options);

/** The framing each message adds around its content. */
const PER_MESSAGE = 4;
/** A conservative price for an image part (a low-detail tile). */
const PER_IMAGE = 85;

/**
 * gpt-tokenizer refuses (throws on) text holding a special token such as
 * `<|endoftext|>` unless told otherwise. Callers' text is data, never control tokens,
 * and providers tokenize it as plain text too, so none is treated as special.
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens in a caller's text, special-token look-alikes counted as the plain text they are. */
export function countTextTokens(text: string): number {
  return countTokens(text, AS_PLAIN_TEXT);
}

/** At most one token per UTF-8 byte. */
const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

type Count = (text: string) => number;

function contentTokens(content: unknown, count: Count): number {
  if (typeof content === "string") return count(content);
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const part of content) {
    if (typeof part !== "object" || part === null) continue;
    const p = part as { type?: string; text?: unknown };
    if (typeof p.text === "string") n += count(p.text);
    else if (p.type === "image_url" || p.type === "image") n += PER_IMAGE;
    else n += count(JSON.stringify(part));
  }
  return n;
}

type Messages = readonly { role?: unknown; content?: unknown; tool_calls?: unknown }[];

function promptTokens(messages: Messages, count: Count): number {
  let n = 3; // the reply's priming
  for (const m of messages) {
    n += PER_MESSAGE + contentTokens(m.content, count);
    if (m.tool_calls !== undefined) n += count(JSON.stringify(m.tool_calls));
  }
  return n;
}

export function estimatePromptTokens(messages: Messages): number {
  return promptTokens(messages, countTextTokens);
}

/** Never less than `estimatePromptTokens`, at a fraction of its cost. */
export function promptTokenBound(messages: Messages): number {
  return promptTokens(messages, utf8Bytes);
}

/** A vocabulary that reads token ids back as the text they stand for (embeddings' token-id input). */
export interface Vocabulary {
  /** gpt-tokenizer's encoding name (`cl100k_base`). */
  name: string;
  /** Throws on an id the vocabulary does not have (beyond it, or one of its gaps). */
  decode(ids: readonly number[]): string;
  /** Text back to ids, special-token look-alikes as plain text (redaction's rewrite). */
  encode(text: string): number[];
}

type Encoding = { decode(ids: Iterable<number>): string; encode(text: string, options?: typeof AS_PLAIN_TEXT): number[] };
/**
 * The encodings the catalog's OpenAI models use, each required by a literal path so the
 * single binary's bundle carries it (a computed path would not be found there). A model
 * mapped to another (older, retired models) has no vocabulary here.
 */
const ENCODINGS: Record<string, () => Encoding> = {
  cl100k_base: () => require("gpt-tokenizer/encoding/cl100k_base"),
  o200k_base: () => require("gpt-tokenizer/encoding/o200k_base"),
};
const vocabularies = new Map<string, Vocabulary>();

/**
 * The vocabulary of an OpenAI model by gpt-tokenizer's own model map (`text-embedding-3-small`:
 * cl100k_base), loaded on first use like the counting one; undefined for a model it does not map.
 */
export function vocabularyOfModel(model: string): Vocabulary | undefined {
  const { modelToEncodingMap } = require("gpt-tokenizer/mapping") as { modelToEncodingMap: Record<string, string | undefined> };
  const name = Object.hasOwn(modelToEncodingMap, model) ? modelToEncodingMap[model] : undefined;
  const load = name && Object.hasOwn(ENCODINGS, name) ? ENCODINGS[name] : undefined;
  if (!name || !load) return undefined;
  let v = vocabularies.get(name);
  if (!v) {
    const enc = load();
    v = { name, decode: (ids) => enc.decode(ids), encode: (text) => enc.encode(text, AS_PLAIN_TEXT) };
    vocabularies.set(name, v);
  }
  return v;
}
