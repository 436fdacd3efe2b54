/**
 * A messages-format request read into the chat shape the simulator answers: system
 * text, `tool_use` blocks as tool calls, `tool_result` blocks as tool messages, tools
 * with their `input_schema`, `tool_choice` (`auto`, `any`, `tool`, `none`,
 * `disable_parallel_tool_use`) and a JSON schema asked for in `output_config.format`
 * (or the older `output_format`), or in the system prompt as the chat-to-messages
 * translation writes a caller's `response_format`.
 */
import { JSON_MODE_INSTRUCTION, JSON_SCHEMA_INSTRUCTION } from "../translate/chat-to-messages.ts";
import { type SimulatedChatRequest, type SimulatedMessage, textOf } from "./conversation.ts";

type Block = { type?: string; text?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: unknown };

export interface SimulatedMessagesRequest {
  model: string;
  messages: { role: string; content: unknown }[];
  system?: unknown;
  max_tokens?: number;
  tools?: { name?: string; description?: string; input_schema?: unknown }[];
  tool_choice?: { type?: string; name?: string; disable_parallel_tool_use?: boolean };
  output_config?: { format?: { type?: string; schema?: unknown } };
  output_format?: { type?: string; schema?: unknown };
  stream?: boolean;
  stop_sequences?: unknown;
  /** Extended thinking (thinking-block.ts). */
  thinking?: { type?: string; budget_tokens?: number } | null;
}

function turns(role: string, content: unknown): SimulatedMessage[] {
  if (!Array.isArray(content)) return [{ role, content }];
  const blocks = content as Block[];
  const text = blocks
    .filter((b) => b?.type === "text")
    .map((b) => b.text ?? "")
    .join(" ");
  if (role === "assistant") {
    const calls = blocks
      .filter((b) => b?.type === "tool_use")
      .map((b) => ({ id: b.id, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }));
    return [{ role, content: text, tool_calls: calls.length ? calls : null }];
  }
  const results = blocks
    .filter((b) => b?.type === "tool_result")
    .map((b) => ({ role: "tool", tool_call_id: b.tool_use_id, content: textOf(b.content) }));
  // A user turn that only carries tool results is the results, not a new ask.
  return text === "" && results.length ? results : [...results, { role, content: text }];
}

function toolChoice(choice: SimulatedMessagesRequest["tool_choice"]): unknown {
  if (choice?.type === "none") return "none";
  if (choice?.type === "any") return "required";
  if (choice?.type === "tool" && typeof choice.name === "string") return { type: "function", function: { name: choice.name } };
  return "auto";
}

/**
 * JSON asked for in the system prompt, as the chat-to-messages translation writes it for a
 * caller's `response_format`: a careful model follows the instruction, schema included.
 */
function instructedFormat(system: string): SimulatedChatRequest["response_format"] {
  const at = system.indexOf(JSON_SCHEMA_INSTRUCTION);
  if (at >= 0) {
    try {
      const schema = JSON.parse(system.slice(at + JSON_SCHEMA_INSTRUCTION.length).split("\n\n")[0] as string);
      return { type: "json_schema", json_schema: { schema } };
    } catch {
      // Not the translation's schema after all: JSON mode, as the instruction before it says.
    }
  }
  return system.includes(JSON_MODE_INSTRUCTION) ? { type: "json_object" } : null;
}

export function messagesAsChat(req: SimulatedMessagesRequest): SimulatedChatRequest {
  const systemText = req.system === undefined ? "" : textOf(req.system);
  const system = req.system === undefined ? [] : [{ role: "system", content: systemText }];
  const format = req.output_config?.format ?? req.output_format;
  return {
    model: req.model,
    messages: [...system, ...req.messages.flatMap((m) => turns(m.role, m.content))],
    max_tokens: req.max_tokens,
    stop: req.stop_sequences,
    tools: req.tools
      ?.filter((t) => t.input_schema !== undefined)
      .map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.input_schema } })),
    tool_choice: toolChoice(req.tool_choice),
    parallel_tool_calls: req.tool_choice?.disable_parallel_tool_use !== true,
    response_format:
      format?.type === "json_schema" ? { type: "json_schema", json_schema: { schema: format.schema } } : instructedFormat(systemText),
  };
}
