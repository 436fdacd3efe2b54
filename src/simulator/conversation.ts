/**
 * The request the simulator answers, in the chat-completions shape every format is
 * read into (messages-request.ts does it for the messages format; the Responses API is
 * translated to chat first), and what the simulator reads from it: the last user
 * message, and the tool calls and results since then.
 */

export interface SimulatedTool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
}

export interface SimulatedMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] | null;
  tool_call_id?: string;
}

export interface SimulatedChatRequest {
  model: string;
  messages: SimulatedMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  tools?: SimulatedTool[];
  /** `none`, `auto`, `required`, or `{type: "function", function: {name}}`. */
  tool_choice?: unknown;
  parallel_tool_calls?: boolean | null;
  /** `{type: "json_object"}`, or `{type: "json_schema", json_schema: {schema}}`. */
  response_format?: { type?: string; json_schema?: { name?: string; schema?: unknown } } | null;
  /** Chat's `stop` (a string or a list), and the messages format's `stop_sequences` read into it. */
  stop?: unknown;
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === "object" && p && "text" in p ? String((p as { text: unknown }).text) : "")).join(" ");
  return "";
}

/** A tool's result since the last user message, with the name of the call it answers. */
export interface ToolResult {
  name: string;
  text: string;
}

export interface ConversationState {
  /** The last user message's text ("" when there is none). */
  ask: string;
  /** Assistant turns that called tools since the last user message. */
  toolTurns: number;
  /** The tool results since the last user message, oldest first. */
  results: ToolResult[];
}

export function readConversation(messages: SimulatedMessage[]): ConversationState {
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const since = messages.slice(lastUser + 1);
  const names = new Map<string, string>();
  let toolTurns = 0;
  const results: ToolResult[] = [];
  for (const m of since) {
    if (m.role === "assistant" && m.tool_calls?.length) {
      toolTurns++;
      for (const c of m.tool_calls) names.set(c.id ?? "", c.function?.name ?? "tool");
    } else if (m.role === "tool") {
      results.push({ name: names.get(m.tool_call_id ?? "") ?? "the tool", text: textOf(m.content) });
    }
  }
  return { ask: lastUser < 0 ? "" : textOf(messages[lastUser]?.content), toolTurns, results };
}
