/**
 * The context optimizer over one document: normalization, deduplication and
 * compression of its prose (code blocks and quoted data untouched), then chunking
 * when a token limit is given and the result is over it. Tokens counted before and
 * after with the o200k tokenizer.
 */
import { countTextTokens } from "../../lib/token-estimate.ts";
import { chunkText } from "./chunk.ts";
import { joinSegments, splitSegments } from "./segments.ts";
import { compress, dedupeParagraphs, normalize } from "./transforms.ts";

export type Transformation = "normalization" | "deduplication" | "compression" | "chunking";

export interface Optimized {
  text: string;
  /** Set when chunking applied: the pieces, each within the limit. */
  chunks: string[] | null;
  originalTokens: number;
  optimizedTokens: number;
  transformations: Transformation[];
}

export function optimizeText(text: string, opts: { maxChunkTokens?: number } = {}): Optimized {
  const applied = new Set<Transformation>();
  const paragraphs = new Set<string>();
  const lines = new Set<string>();
  const segments = splitSegments(text.replace(/\r\n?/g, "\n")).map((s) => {
    if (s.protected) return s;
    const normalized = normalize(s.text);
    if (normalized !== s.text) applied.add("normalization");
    const deduped = dedupeParagraphs(normalized, paragraphs);
    if (deduped !== normalized) applied.add("deduplication");
    const compressed = compress(deduped, lines);
    if (compressed !== deduped) applied.add("compression");
    return { ...s, text: compressed };
  });
  if (text.includes("\r")) applied.add("normalization");
  const out = joinSegments(segments);
  const optimizedTokens = countTextTokens(out);
  let chunks: string[] | null = null;
  if (opts.maxChunkTokens !== undefined && optimizedTokens > opts.maxChunkTokens) {
    chunks = chunkText(out, opts.maxChunkTokens);
    applied.add("chunking");
  }
  return { text: out, chunks, originalTokens: countTextTokens(text), optimizedTokens, transformations: [...applied] };
}

/** Repeated messages in a conversation: the same role and text again is dropped, the first kept. */
export function dedupeMessages<M extends { role?: unknown; content?: unknown }>(messages: readonly M[]): M[] {
  const seen = new Set<string>();
  return messages.filter((m) => {
    if (typeof m.content !== "string") return true;
    const key = `${String(m.role)}\u0000${m.content}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
