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

/**
 * Repeated messages in a conversation: the same role and text again is dropped, the
 * first kept. Only plain turns take part: a tool result or a turn that calls tools is
 * tied to its call by id, so dropping one would break the conversation. The last
 * message is always kept, since it is what the model answers (without it the request
 * would end on another turn: an assistant turn there is a prefill), and so is the last
 * user turn, the question an agent loop's tool calls are answering ("continue" said
 * again is a new instruction, not a copy). A repeat is dropped only beside a turn of its
 * own role (a turn sent twice in a row, or one of a run of user turns): elsewhere
 * dropping it would join the turns around it, two answers, into one.
 */
export function dedupeMessages<M extends { role?: unknown; content?: unknown }>(messages: readonly M[]): M[] {
  const seen = new Set<string>();
  const last = messages.length - 1;
  const lastUser = messages.findLastIndex((m) => m.role === "user" && typeof m.content === "string");
  let previousRole: unknown;
  return messages.filter((m, i) => {
    const role = previousRole;
    previousRole = m.role;
    if (typeof m.content !== "string" || !isPlainTurn(m)) return true;
    const key = `${String(m.role)}\u0000${m.content}`;
    const besideItsRole = role === m.role || messages[i + 1]?.role === m.role;
    if (seen.has(key) && i !== last && i !== lastUser && besideItsRole) {
      // Dropped: the turn before the next one is still the one before this.
      previousRole = role;
      return false;
    }
    seen.add(key);
    return true;
  });
}

const PLAIN_ROLES = new Set(["system", "developer", "user", "assistant"]);

function isPlainTurn(m: object): boolean {
  const r = m as Record<string, unknown>;
  return PLAIN_ROLES.has(r.role as string) && r.tool_calls === undefined && r.tool_call_id === undefined && r.function_call === undefined;
}
