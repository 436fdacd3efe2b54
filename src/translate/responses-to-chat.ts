/**
 * A Responses API request (`POST /v1/responses`) as a chat-completions request, for
 * providers that only speak chat completions (or messages, one translation further):
 * `instructions` and system/developer items become system messages, input items become
 * messages (text, images, function calls and their outputs), function tools become
 * chat tools, `text.format` becomes `response_format`, `max_output_tokens` becomes
 * `max_tokens` (sent under the name the provider kind takes, `max_completion_tokens` at
 * OpenAI and Azure: the chat adapter renames it by the kind's spec), `reasoning.effort` becomes `reasoning_effort` where the provider kind's chat
 * API takes it (dropped, as documented, where it does not), and Google's thought signature
 * comes back from the gateway's own reasoning item onto its tool call. What chat completions cannot express is refused with a 400 naming the
 * field, never dropped silently: built-in tools (web search, file search, computer
 * use, ...), stored conversation state (`previous_response_id`, `conversation`), and
 * input parts other than text and images.
 */
import { ApiError } from "../lib/errors.ts";
import { extraContentFor, signaturesIn } from "./thought-signature.ts";

type Json = Record<string, unknown>;

function refuse(param: string, message: string): never {
  throw new ApiError(400, "invalid_request", message, { param });
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One content part of an input message as a chat content part. */
function chatPart(part: unknown, where: string): Json {
  if (!isObject(part)) refuse(where, `${where} must be an object.`);
  switch (part.type) {
    case "input_text":
    case "output_text":
    case "text":
      if (typeof part.text !== "string") refuse(`${where}.text`, `${where}.text must be a string.`);
      return { type: "text", text: part.text };
    case "input_image": {
      const url = part.image_url;
      if (typeof url !== "string")
        refuse(`${where}.image_url`, `${where}: only images given by image_url can be translated for this provider.`);
      return { type: "image_url", image_url: { url, ...(typeof part.detail === "string" ? { detail: part.detail } : {}) } };
    }
    case "refusal":
      return { type: "text", text: typeof part.refusal === "string" ? part.refusal : "" };
    default:
      return refuse(
        `${where}.type`,
        `${where}: content parts of type ${JSON.stringify(part.type)} cannot be translated to chat completions for this provider.`,
      );
  }
}

function chatContent(content: unknown, where: string): string | Json[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return refuse(where, `${where} must be a string or an array of content parts.`);
  const parts = content.map((p, i) => chatPart(p, `${where}[${i}]`));
  // A text-only assistant turn is sent as a string: not every chat provider takes parts there.
  return parts.every((p) => p.type === "text") ? parts.map((p) => p.text as string).join("") : parts;
}

/**
 * A function call's output as a chat tool message's text. A list of content parts is
 * its text; an image or file in it is refused, since a chat tool message carries text
 * only (written out as JSON, a picture's base64 would be read and charged as text).
 */
function toolOutput(output: unknown, where: string): string {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return JSON.stringify(output ?? "");
  return output
    .map((part, j) => {
      if (isObject(part) && (part.type === "input_text" || part.type === "output_text") && typeof part.text === "string") return part.text;
      return refuse(
        `${where}[${j}].type`,
        `${where}[${j}]: a function call's output can hold only text for this provider (chat tool results are text), not ${JSON.stringify(isObject(part) ? part.type : part)}.`,
      );
    })
    .join("");
}

const ROLES = new Set(["user", "assistant", "system", "developer"]);

/** The input items as chat messages; consecutive function calls join one assistant turn. */
function chatMessages(input: unknown): Json[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input)) return refuse("input", "input must be a string or an array of input items.");
  const out: Json[] = [];
  const signatures = signaturesIn(input);
  input.forEach((item, i) => {
    const where = `input[${i}]`;
    if (!isObject(item)) refuse(where, `${where} must be an object.`);
    const type = item.type ?? "message";
    if (type === "message") {
      if (typeof item.role !== "string" || !ROLES.has(item.role))
        refuse(`${where}.role`, `${where}.role must be one of user, assistant, system, developer.`);
      const role = item.role === "developer" ? "system" : item.role;
      out.push({ role, content: chatContent(item.content, `${where}.content`) });
    } else if (type === "function_call") {
      if (typeof item.call_id !== "string" || typeof item.name !== "string")
        refuse(where, `${where}: a function_call needs call_id and name.`);
      const call = {
        id: item.call_id,
        type: "function",
        function: { name: item.name, arguments: typeof item.arguments === "string" ? item.arguments : "{}" },
        // Google's thought signature, carried back in the gateway's own reasoning item (thought-signature.ts).
        ...extraContentFor(signatures.get(item.call_id)),
      };
      const last = out[out.length - 1];
      if (last?.role === "assistant" && Array.isArray(last.tool_calls)) (last.tool_calls as Json[]).push(call);
      else out.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (type === "function_call_output") {
      if (typeof item.call_id !== "string") refuse(`${where}.call_id`, `${where}.call_id must be a string.`);
      out.push({ role: "tool", tool_call_id: item.call_id, content: toolOutput(item.output, `${where}.output`) });
    } else if (type === "reasoning") {
      // Reasoning items are the provider's state between turns: chat providers take none back, but Google's
      // thought signatures ride in the gateway's own (read by signaturesIn above, put on their tool calls).
    } else {
      refuse(
        `${where}.type`,
        `${where}: input items of type ${JSON.stringify(type)} cannot be translated to chat completions for this provider.`,
      );
    }
  });
  return out;
}

function chatTools(tools: unknown): Json[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) return refuse("tools", "tools must be an array.");
  return tools.map((tool, i) => {
    if (!isObject(tool) || tool.type !== "function") {
      return refuse(
        `tools[${i}].type`,
        `tools[${i}]: only function tools can be translated for this provider (built-in tools such as ${JSON.stringify(isObject(tool) ? tool.type : tool)} need a provider that offers the Responses API).`,
      );
    }
    if (typeof tool.name !== "string" || tool.name === "") refuse(`tools[${i}].name`, `tools[${i}].name must be a non-empty string.`);
    return {
      type: "function",
      function: {
        name: tool.name,
        ...(typeof tool.description === "string" ? { description: tool.description } : {}),
        ...(isObject(tool.parameters) ? { parameters: tool.parameters } : {}),
        ...(typeof tool.strict === "boolean" ? { strict: tool.strict } : {}),
      },
    };
  });
}

function chatToolChoice(choice: unknown): unknown {
  if (choice === undefined || typeof choice === "string") return choice;
  if (isObject(choice) && choice.type === "function" && typeof choice.name === "string")
    return { type: "function", function: { name: choice.name } };
  return refuse("tool_choice", "tool_choice must be auto, none, required or a function by name for this provider.");
}

function responseFormat(text: unknown): Json | undefined {
  if (!isObject(text) || !isObject(text.format)) return undefined;
  const f = text.format;
  if (f.type === "text") return undefined;
  if (f.type === "json_object") return { type: "json_object" };
  if (f.type === "json_schema") {
    return {
      type: "json_schema",
      json_schema: {
        name: typeof f.name === "string" ? f.name : "response",
        schema: f.schema,
        ...(typeof f.strict === "boolean" ? { strict: f.strict } : {}),
      },
    };
  }
  return refuse("text.format.type", "text.format.type must be text, json_object or json_schema.");
}

/** Fields that carry state or features chat completions does not have. */
const STATEFUL = ["previous_response_id", "conversation"] as const;

/** What the target's chat API takes beyond the common fields (the provider kind's capabilities). */
export interface ChatCapabilities {
  /** The chat API documents `reasoning_effort`; without it `reasoning.effort` is dropped (docs/decisions.md). */
  reasoningEffort: boolean;
}

/** `reasoning.effort` as chat's `reasoning_effort`, where the target takes it; the value is the vendor's to check. */
function reasoningEffort(reasoning: unknown, caps: ChatCapabilities): string | undefined {
  if (reasoning === undefined || reasoning === null) return undefined;
  if (!isObject(reasoning)) return refuse("reasoning", "reasoning must be an object.");
  const effort = reasoning.effort;
  if (effort === undefined || effort === null) return undefined;
  if (typeof effort !== "string") return refuse("reasoning.effort", "reasoning.effort must be a string.");
  return caps.reasoningEffort ? effort : undefined;
}

export function responsesToChatRequest(body: Json, caps: ChatCapabilities = { reasoningEffort: false }): Json {
  for (const field of STATEFUL) {
    if (body[field] !== undefined && body[field] !== null) {
      refuse(
        field,
        `${field} needs a provider that stores responses; this model's provider speaks chat completions, so send the whole conversation in input instead.`,
      );
    }
  }
  const messages = chatMessages(body.input);
  if (typeof body.instructions === "string" && body.instructions !== "") messages.unshift({ role: "system", content: body.instructions });
  const chat: Json = { model: body.model, messages };
  const tools = chatTools(body.tools);
  if (tools && tools.length > 0) chat.tools = tools;
  const choice = chatToolChoice(body.tool_choice);
  if (choice !== undefined && tools && tools.length > 0) chat.tool_choice = choice;
  const format = responseFormat(body.text);
  if (format) chat.response_format = format;
  if (typeof body.max_output_tokens === "number") chat.max_tokens = body.max_output_tokens;
  const effort = reasoningEffort(body.reasoning, caps);
  if (effort !== undefined) chat.reasoning_effort = effort;
  for (const field of ["temperature", "top_p", "user", "parallel_tool_calls", "stream"] as const) {
    if (body[field] !== undefined && body[field] !== null) chat[field] = body[field];
  }
  return chat;
}
