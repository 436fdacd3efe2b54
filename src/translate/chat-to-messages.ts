/**
 * A chat-completions request as a messages request, for messages-format providers:
 * system turns become `system`, tool calls become `tool_use` blocks and tool
 * results `tool_result` blocks (their images kept), images become image blocks, `stop`
 * becomes `stop_sequences`, tools, `tool_choice` and `parallel_tool_calls: false` take the
 * messages shape; JSON mode (and a `json_schema` format, with its schema) becomes an
 * instruction in `system`. A content part with no messages block (audio, a file) is a 400
 * naming it. Consecutive turns of one role are merged, as the messages format requires
 * alternation.
 */
import type { ChatCompletionRequest } from "../schemas/chat-completions.ts";
import { badRequest } from "../lib/errors.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../lib/json-body.ts";

/** Used when the caller sets no limit: the messages format requires one. */
export const DEFAULT_MAX_TOKENS = 4096;
export const JSON_MODE_INSTRUCTION = "Respond with a single valid JSON object and nothing else.";
/** Followed by the schema a `json_schema` response format names: the messages format has no field every provider takes for it. */
export const JSON_SCHEMA_INSTRUCTION = "The JSON object must match this JSON schema:";

type Block = Record<string, unknown>;
interface Turn {
  role: "user" | "assistant";
  content: Block[];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) => (p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string" ? (p as { text: string }).text : ""))
    .join("");
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(url: string): Block {
  const m = DATA_URL.exec(url);
  if (m) return { type: "image", source: { type: "base64", media_type: m[1], data: m[2] } };
  return { type: "image", source: { type: "url", url } };
}

/**
 * A message's content as messages blocks: text and images. Any other part (audio, a
 * file) is a 400 naming it: dropped, the model would answer a question it never saw.
 */
function contentBlocks(content: unknown, where: string): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  (content as Record<string, unknown>[]).forEach((part, j) => {
    if (part?.type === "text" && typeof part.text === "string") out.push({ type: "text", text: part.text });
    else if (part?.type === "refusal" && typeof part.refusal === "string") out.push({ type: "text", text: part.refusal });
    else if (part?.type === "image_url") {
      const img = part.image_url as { url?: unknown } | string | undefined;
      const url = typeof img === "string" ? img : img?.url;
      if (typeof url !== "string") throw badRequest(`${where}[${j}].image_url.url must be a string`, { param: `${where}[${j}].image_url` });
      out.push(imageBlock(url));
    } else
      throw badRequest(
        `${where}[${j}]: content parts of type ${JSON.stringify(part?.type)} cannot be translated for this model's provider (it speaks the messages format: text and images only)`,
        { param: `${where}[${j}].type` },
      );
  });
  return out;
}

/** A tool's result: its text, or text and image blocks when it holds images (the messages format takes both). */
function toolResultContent(content: unknown, where: string): string | Block[] {
  if (!Array.isArray(content)) return textOf(content);
  const blocks = contentBlocks(content, where);
  return blocks.every((b) => b.type === "text") ? blocks.map((b) => b.text as string).join("") : blocks;
}

/** A tool call's arguments as an object; nested past the request body's own bound, refused before anything parses it again. */
function parseArguments(raw: unknown, where: string): unknown {
  if (typeof raw !== "string") return raw ?? {};
  if (nestedDeeperThan(raw, MAX_JSON_DEPTH))
    throw badRequest(`${where}: a tool call's arguments are nested deeper than ${MAX_JSON_DEPTH} levels`, { param: where });
  try {
    return JSON.parse(raw || "{}");
  } catch {
    throw badRequest("messages: a tool call's arguments are not valid JSON", { param: "messages" });
  }
}

/** An assistant's tool call as a `tool_use` block: the schema lets any value through as a call, so each is checked here. */
function toolUse(call: unknown, where: string): Block {
  const c = call as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
  if (typeof c !== "object" || c === null || typeof c.function !== "object" || c.function === null || typeof c.function.name !== "string")
    throw badRequest(`${where}: a tool call needs a function with a name`, { param: where });
  if (c.id !== undefined && typeof c.id !== "string") throw badRequest(`${where}.id must be a string`, { param: `${where}.id` });
  return {
    type: "tool_use",
    id: c.id ?? "",
    name: c.function.name,
    input: parseArguments(c.function.arguments, `${where}.function.arguments`),
  };
}

function toolChoice(choice: unknown): Block | undefined {
  if (choice === undefined || choice === null || choice === "auto") return choice === "auto" ? { type: "auto" } : undefined;
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any" };
  const name = (choice as { function?: { name?: unknown } })?.function?.name;
  if (typeof name === "string") return { type: "tool", name };
  throw badRequest("tool_choice: expected auto, none, required or a function", { param: "tool_choice" });
}

export function chatToMessagesRequest(req: ChatCompletionRequest & Record<string, unknown>): Record<string, unknown> {
  if (req.n !== undefined && req.n !== null && req.n > 1)
    throw badRequest("n: messages-format providers return one choice; n must be 1", { param: "n" });
  const system: string[] = [];
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: Block[]) => {
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  req.messages.forEach((m, i) => {
    const where = `messages[${i}].content`;
    if (m.role === "system" || m.role === "developer") {
      system.push(textOf(m.content));
    } else if (m.role === "tool") {
      push("user", [{ type: "tool_result", tool_use_id: m.tool_call_id ?? "", content: toolResultContent(m.content, where) }]);
    } else if (m.role === "assistant") {
      push("assistant", [
        ...contentBlocks(m.content, where),
        ...(m.tool_calls ?? []).map((c, k) => toolUse(c, `messages[${i}].tool_calls[${k}]`)),
      ]);
    } else {
      push("user", contentBlocks(m.content, where));
    }
  });
  if (req.response_format?.type === "json_object" || req.response_format?.type === "json_schema") system.push(JSON_MODE_INSTRUCTION);
  const schema = (req.response_format as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema;
  if (req.response_format?.type === "json_schema" && schema !== undefined)
    system.push(`${JSON_SCHEMA_INSTRUCTION} ${JSON.stringify(schema)}`);

  const out: Record<string, unknown> = {
    model: req.model,
    messages: turns.map((t) => ({ role: t.role, content: t.content })),
    max_tokens: req.max_tokens ?? req.max_completion_tokens ?? DEFAULT_MAX_TOKENS,
  };
  if (system.length) out.system = system.filter(Boolean).join("\n\n");
  if (req.stream) out.stream = true;
  // The messages format's temperature runs 0-1; the chat format's 0-2.
  if (req.temperature !== undefined && req.temperature !== null) out.temperature = Math.min(req.temperature, 1);
  if (req.top_p !== undefined && req.top_p !== null) out.top_p = req.top_p;
  if (req.stop !== undefined && req.stop !== null) out.stop_sequences = Array.isArray(req.stop) ? req.stop : [req.stop];
  if (req.tools?.length) {
    out.tools = req.tools.map((t) => ({
      name: t.function.name,
      ...(t.function.description ? { description: t.function.description } : {}),
      input_schema: t.function.parameters ?? { type: "object", properties: {} },
    }));
  }
  const choice = toolChoice(req.tool_choice);
  // One call at a time is the messages format's `disable_parallel_tool_use` (not for `none`, which makes no call).
  if (req.parallel_tool_calls === false && out.tools && choice?.type !== "none")
    out.tool_choice = { ...(choice ?? { type: "auto" }), disable_parallel_tool_use: true };
  else if (choice) out.tool_choice = choice;
  if (req.user) out.metadata = { user_id: req.user };
  // `reasoning_effort` is dropped, as documented (docs/decisions.md): the messages format has no effort
  // level, only `thinking` with a token budget, whose mapping each gateway invents, and a thinking turn
  // that called a tool must come back with its signed thinking blocks, which the chat format cannot carry.
  return out;
}
