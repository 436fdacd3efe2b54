/**
 * What a chat request needs from a model, read once from its body: the capabilities it
 * uses (tools, image inputs, JSON mode) and how many tokens it may take (estimated
 * prompt plus the requested maximum), which the candidate's context window must hold.
 * The tokenizer costs far more than the decision itself, so it runs only when needed:
 * the prompt is priced at a quarter token per byte (close for prose, the same for
 * every candidate, so the ranking holds), and fit is checked against a bound of one
 * token per byte first; only a prompt whose bound overflows a window is counted.
 */
import { estimatePromptTokens, promptTokenBound } from "../lib/token-estimate.ts";

export interface RouteNeeds {
  tools: boolean;
  vision: boolean;
  json: boolean;
  /** The prompt's size for pricing (and for fit, when no bound is given). */
  promptTokens: number;
  /** Never less than the prompt's real count: a window that holds it holds the prompt. */
  promptTokenBound?: number;
  /** The tokenizer's count, for a window the bound overflows (computed once). */
  exactPromptTokens?: () => number;
  /** The caller's `max_tokens` (or `max_completion_tokens`); null when unset. */
  maxTokens: number | null;
}

/** Bytes per token assumed when pricing a prompt that was not counted. */
const BYTES_PER_TOKEN = 4;

/** Whether the prompt and the requested answer fit a context window. */
export function fitsWindow(needs: RouteNeeds, contextWindow: number): boolean {
  const answer = needs.maxTokens ?? 0;
  if (needs.promptTokenBound === undefined || needs.exactPromptTokens === undefined) return needs.promptTokens + answer <= contextWindow;
  if (needs.promptTokenBound + answer <= contextWindow) return true;
  return needs.exactPromptTokens() + answer <= contextWindow;
}

interface ChatLike {
  messages: { content?: unknown }[];
  tools?: unknown[] | null;
  response_format?: { type?: unknown } | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
}

function hasImagePart(content: unknown): boolean {
  if (!Array.isArray(content)) return false;
  return content.some((part) => {
    const type = (part as { type?: unknown } | null)?.type;
    return type === "image_url" || type === "input_image" || type === "image";
  });
}

export function chatNeeds(body: ChatLike): RouteNeeds {
  const format = body.response_format?.type;
  const bound = promptTokenBound(body.messages);
  let exact: number | undefined;
  return {
    tools: Array.isArray(body.tools) && body.tools.length > 0,
    vision: body.messages.some((m) => hasImagePart(m.content)),
    json: format === "json_object" || format === "json_schema",
    promptTokens: Math.ceil(bound / BYTES_PER_TOKEN),
    promptTokenBound: bound,
    exactPromptTokens: () => (exact ??= estimatePromptTokens(body.messages)),
    maxTokens: body.max_tokens ?? body.max_completion_tokens ?? null,
  };
}
