/**
 * What a chat request needs from a model, read once from its body: the capabilities it
 * uses (tools, image inputs, JSON mode) and how many tokens it may take (estimated
 * prompt plus the requested maximum), which the candidate's context window must hold.
 */
import { estimatePromptTokens } from "../lib/token-estimate.ts";

export interface RouteNeeds {
  tools: boolean;
  vision: boolean;
  json: boolean;
  promptTokens: number;
  /** The caller's `max_tokens` (or `max_completion_tokens`); null when unset. */
  maxTokens: number | null;
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
  return {
    tools: Array.isArray(body.tools) && body.tools.length > 0,
    vision: body.messages.some((m) => hasImagePart(m.content)),
    json: format === "json_object" || format === "json_schema",
    promptTokens: estimatePromptTokens(body.messages),
    maxTokens: body.max_tokens ?? body.max_completion_tokens ?? null,
  };
}
