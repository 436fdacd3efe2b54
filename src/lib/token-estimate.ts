/**
 * Prompt-size estimates before a call is sent (cost quotes now, spend reservations
 * later). Counts with a real BPE tokenizer (o200k, the current OpenAI vocabulary):
 * exact for OpenAI models, a close estimate for the others.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

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

function contentTokens(content: unknown): number {
  if (typeof content === "string") return countTextTokens(content);
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const part of content) {
    if (typeof part !== "object" || part === null) continue;
    const p = part as { type?: string; text?: unknown };
    if (typeof p.text === "string") n += countTextTokens(p.text);
    else if (p.type === "image_url" || p.type === "image") n += PER_IMAGE;
    else n += countTextTokens(JSON.stringify(part));
  }
  return n;
}

export function estimatePromptTokens(messages: readonly { role?: unknown; content?: unknown; tool_calls?: unknown }[]): number {
  let n = 3; // the reply's priming
  for (const m of messages) {
    n += PER_MESSAGE + contentTokens(m.content);
    if (m.tool_calls !== undefined) n += countTextTokens(JSON.stringify(m.tool_calls));
  }
  return n;
}
