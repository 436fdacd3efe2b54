/**
 * Chunking for embeddings input longer than the model's context: paragraphs packed
 * greedily into chunks of at most `maxTokens`; a paragraph larger than that is split
 * by sentences, and a sentence larger than that by words. Each piece is counted once
 * and the chunk's count kept as a sum, so the work is linear in the text: recounting
 * the growing chunk at every piece took minutes for a few hundred kilobytes of short
 * sentences, on the event loop.
 */
import { countTextTokens } from "../../lib/token-estimate.ts";

interface Piece {
  text: string;
  tokens: number;
}

function pieces(text: string, maxTokens: number): Piece[] {
  const tokens = countTextTokens(text);
  if (tokens <= maxTokens) return [{ text, tokens }];
  const bySentence = text.split(/(?<=[.!?])\s+/);
  if (bySentence.length > 1) return bySentence.flatMap((s) => pieces(s, maxTokens));
  const words = text.split(/\s+/);
  if (words.length > 1) return words.flatMap((w) => pieces(w, maxTokens));
  // One giant word: cut by characters (a token is at least one character).
  const out: Piece[] = [];
  for (let i = 0; i < text.length; i += maxTokens) {
    const slice = text.slice(i, i + maxTokens);
    out.push({ text: slice, tokens: countTextTokens(slice) });
  }
  return out;
}

const SEPARATOR = "\n\n";

export function chunkText(text: string, maxTokens: number): string[] {
  if (maxTokens < 1) throw new RangeError("maxTokens must be at least 1");
  const separatorTokens = countTextTokens(SEPARATOR);
  const chunks: string[] = [];
  let parts: Piece[] = [];
  let sum = 0;
  for (const piece of text.split(/\n[ \t]*\n/).flatMap((p) => pieces(p.trim(), maxTokens))) {
    if (piece.text === "") continue;
    if (parts.length > 0 && sum + separatorTokens + piece.tokens > maxTokens) {
      packed(parts, maxTokens, chunks);
      parts = [];
    }
    sum = parts.length === 0 ? piece.tokens : sum + separatorTokens + piece.tokens;
    parts.push(piece);
  }
  packed(parts, maxTokens, chunks);
  return chunks;
}

/**
 * The parts as chunks, counted once each. Pieces have no whitespace at their edges, so the
 * separator tokenizes apart and the sum is the count; should a join ever count higher,
 * its last parts move to a chunk of their own.
 */
function packed(parts: Piece[], maxTokens: number, chunks: string[]): void {
  let rest = parts;
  while (rest.length > 0) {
    let keep = rest.length;
    let chunk = rest.map((p) => p.text).join(SEPARATOR);
    while (keep > 1 && countTextTokens(chunk) > maxTokens) {
      keep--;
      chunk = rest
        .slice(0, keep)
        .map((p) => p.text)
        .join(SEPARATOR);
    }
    chunks.push(chunk);
    rest = rest.slice(keep);
  }
}
