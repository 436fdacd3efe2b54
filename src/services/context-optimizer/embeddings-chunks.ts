/**
 * Embeddings input longer than the model's context, split into inputs that fit: each
 * text over `maxTokens` becomes its chunks (chunk.ts), in place, so the provider
 * answers one embedding per chunk, in order. Token arrays are the caller's own
 * tokenization and are left as they are.
 */
import { countTextTokens } from "../../lib/token-estimate.ts";
import { chunkText } from "./chunk.ts";

export interface ChunkedInput {
  /** The input to send: the original when nothing was over the limit. */
  input: string | string[];
  /** How many inputs each original input became, in order. */
  chunksPerInput: number[];
  chunked: boolean;
  originalTokens: number;
  optimizedTokens: number;
}

/** Null when the input is not text (token arrays). */
export function chunkEmbeddingInput(input: unknown, maxTokens: number): ChunkedInput | null {
  const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((t) => typeof t === "string") ? input : null;
  if (!texts) return null;
  const out: string[] = [];
  const chunksPerInput: number[] = [];
  let originalTokens = 0;
  let optimizedTokens = 0;
  for (const text of texts as string[]) {
    const tokens = countTextTokens(text);
    originalTokens += tokens;
    // An empty text has no chunks but is still one input (the provider decides what it makes of it).
    let pieces = tokens > maxTokens ? chunkText(text, maxTokens) : [text];
    // Blank lines alone have no chunk, yet the input must keep its embedding: its start, cut by characters (a token is one or more).
    if (pieces.length === 0) pieces = [text.slice(0, maxTokens)];
    for (const p of pieces) optimizedTokens += p === text ? tokens : countTextTokens(p);
    out.push(...pieces);
    chunksPerInput.push(pieces.length);
  }
  // Any text over the limit was replaced, by its chunks or its cut start.
  const chunked = (texts as string[]).some((text, i) => out[i] !== text) || out.length !== texts.length;
  return { input: chunked ? out : (input as string | string[]), chunksPerInput, chunked, originalTokens, optimizedTokens };
}
