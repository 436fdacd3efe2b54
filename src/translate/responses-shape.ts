/**
 * The Responses API's answer object as the gateway writes it from a chat answer: the
 * envelope that echoes the request (tools as OpenAI echoes them), usage in the
 * Responses names, and the output items (a `message` with its `output_text`, each
 * `function_call`). Shared by the whole and the streamed translation.
 */
import { tokenCount as count } from "../providers/wire-format.ts";

type Json = Record<string, unknown>;

export interface ChatAnswer {
  id?: string;
  created?: number;
  model?: string;
  choices?: {
    message?: { content?: string | null; tool_calls?: ChatToolCall[]; refusal?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
}

export interface ChatToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** The request fields a Responses answer echoes back. */
export interface ResponsesEcho {
  /** The model asked for: the response's until an answer names its own. */
  model?: unknown;
  instructions?: unknown;
  max_output_tokens?: unknown;
  temperature?: unknown;
  top_p?: unknown;
  tools?: unknown;
  tool_choice?: unknown;
  text?: unknown;
  metadata?: unknown;
  parallel_tool_calls?: unknown;
}

/** The response's id from the chat answer's; a random one when that gives nothing (Azure's first chunk has `"id":""`). */
export function responseId(chatId: string | undefined): string {
  const own = (chatId ?? "").replace(/^chatcmpl-/, "").replace(/[^A-Za-z0-9_-]/g, "");
  return `resp_${own || crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * Chat usage in the Responses names; reasoning and cached tokens kept, as OpenAI's own
 * Responses answers give them. A count that is not one (null, a string, a negative number)
 * is 0, never passed on to the client.
 */
export function usageOf(u: ChatAnswer["usage"]): Json {
  const input = count(u?.prompt_tokens);
  const output = count(u?.completion_tokens);
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: count(u?.prompt_tokens_details?.cached_tokens),
      cache_write_tokens: count(u?.prompt_tokens_details?.cache_write_tokens),
    },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: count(u?.completion_tokens_details?.reasoning_tokens) },
    total_tokens: input + output,
  };
}

export function envelope(
  id: string,
  created: number,
  model: string,
  echo: ResponsesEcho,
  status: string,
  output: Json[],
  usage: Json | null,
  finish: string | null,
): Json {
  return {
    id,
    object: "response",
    created_at: created,
    status,
    error: null,
    incomplete_details:
      finish === "length" ? { reason: "max_output_tokens" } : finish === "content_filter" ? { reason: "content_filter" } : null,
    instructions: echo.instructions ?? null,
    max_output_tokens: echo.max_output_tokens ?? null,
    model,
    output,
    parallel_tool_calls: echo.parallel_tool_calls ?? true,
    previous_response_id: null,
    temperature: echo.temperature ?? null,
    text: echo.text ?? { format: { type: "text" } },
    tool_choice: echo.tool_choice ?? "auto",
    tools: Array.isArray(echo.tools) ? echo.tools.map(echoedTool) : [],
    top_p: echo.top_p ?? null,
    metadata: echo.metadata ?? {},
    // Usage comes with the finished response; before that the member is left out (the description has no null for it).
    ...(usage ? { usage } : {}),
  };
}

/**
 * A function tool as OpenAI echoes it: `strict` (true unless the request said false),
 * `parameters` and `description` always present; an `mcp` tool without its
 * credentials (`headers: null`, no `authorization`), which OpenAI never returns;
 * other tools as given.
 */
function echoedTool(tool: unknown): unknown {
  if (typeof tool !== "object" || tool === null) return tool;
  if ((tool as Json).type === "mcp") {
    const { authorization: _secret, ...rest } = tool as Json;
    return { ...rest, headers: null };
  }
  if ((tool as Json).type !== "function") return tool;
  const t = tool as Json;
  return { ...t, description: t.description ?? null, parameters: t.parameters ?? null, strict: t.strict ?? true };
}

export function statusOf(finish: string | null | undefined): string {
  return finish === "length" || finish === "content_filter" ? "incomplete" : "completed";
}

/** An `output_text` part: no annotations or log probabilities to give, but both lists are always there. */
export const outputText = (text: string): Json => ({ type: "output_text", text, annotations: [], logprobs: [] });

/** A `refusal` part: the model declined, in its own words (chat's `message.refusal`). */
export const refusalPart = (refusal: string): Json => ({ type: "refusal", refusal });

/** An assistant message: its text, or its parts when it holds a refusal. */
export function messageItem(id: string, text: string | Json[], status: string): Json {
  return { type: "message", id, status, role: "assistant", content: typeof text === "string" ? [outputText(text)] : text };
}

export function callItem(id: string, call: { id: string; name: string; arguments: string }, status: string): Json {
  return { type: "function_call", id, call_id: call.id, name: call.name, arguments: call.arguments, status };
}

/** A chat stream's chunk as the stream translation reads it. */
export interface ChatChunk {
  id?: string;
  created?: number;
  model?: string;
  choices?: {
    delta?: {
      content?: string | null;
      refusal?: string | null;
      tool_calls?: ToolCallDelta[];
    };
    finish_reason?: string | null;
  }[];
  usage?: ChatAnswer["usage"];
  error?: { code?: string; message?: string };
}

/** A piece of a streamed tool call; Google's first piece carries its thought signature in `extra_content`. */
export interface ToolCallDelta {
  index?: number;
  id?: string;
  extra_content?: unknown;
  function?: { name?: string; arguments?: string };
}
