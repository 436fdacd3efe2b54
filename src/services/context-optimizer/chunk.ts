/**
 * Chunking for embeddings input longer than the model's context: paragraphs packed
 * greedily into chunks of at most `maxTokens`; a paragraph larger than that is split
 * by sentences, and a sentence larger than that by words.
 */
import { countTextTokens } from "../../lib/token-estimate.ts";

function pieces(text: string, maxTokens: number): string[] {
  if (countTextTokens(text) <= maxTokens) return [text];
  const bySentence = text.split(/(?<=[.!?])\s+/);
  if (bySentence.length > 1) return bySentence.flatMap((s) => pieces(s, maxTokens));
  const words = text.split(/\s+/);
  if (words.length > 1) return words.flatMap((w) => pieces(w, maxTokens));
  // One giant word: cut by characters (a token is at least one character).
  const out: string[] = [];
  for (let i = 0; i < text.length; i += maxTokens) out.push(text.slice(i, i + maxTokens));
  return out;
}

export function chunkText(text: string, maxTokens: number): string[] {
  if (maxTokens < 1) throw new RangeError("maxTokens must be at least 1");
  const chunks: string[] = [];
  let current = "";
  for (const piece of text.split(/\n[ \t]*\n/).flatMap((p) => pieces(p.trim(), maxTokens))) {
    if (piece === "") continue;
    const joined = current ? `${current}\n\n${piece}` : piece;
    if (countTextTokens(joined) <= maxTokens) current = joined;
    else {
      if (current) chunks.push(current);
      current = piece;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}
