/**
 * Every text a call sends to a provider. The walk takes every string in the body
 * (values, and the keys of free-form objects such as `metadata` or a JSON schema)
 * except an explicit allowlist of structural fields per wire format: roles,
 * enums, opaque signatures and binary media. Anything a format adds later is
 * scanned until it is named here, so a new field can never slip through unseen.
 *
 * Injection is judged in the caller's turns and tool results only; the owner's
 * system prompt, the model's own earlier turns and the tool definitions are scanned
 * for secrets and personal data. Ids (tool-call ids, item ids) are caller-chosen text
 * the model reads: bounded by the schemas, scanned, and judged for injection wherever
 * they sit. Files sent inline are decoded and read as text (file-texts.ts); a file
 * that is not text, or one given by reference, is reported unread. Each slot can be
 * rewritten, for redaction.
 */
import type { Vocabulary } from "../../lib/token-estimate.ts";
import { bodyFormat, type Json, type Reading, requestTexts, type Rule, type TextSlot } from "./text-walk.ts";
import { tokenIdTexts } from "./token-id-texts.ts";

export type { TextSlot };

const isString = (v: unknown) => typeof v === "string";
/** Inline images and audio are binary media, not text; an `https:` image URL is still read (it can carry credentials). */
const inlineImage = (v: unknown) => typeof v === "string" && v.startsWith("data:image/");
/** A messages source: base64 data is a file to decode (an image's is media, not read); a `text` source's data is plain text. */
const sourceData = (_: unknown, holder: Json): Reading =>
  holder.type !== "base64" ? "text" : String(holder.media_type ?? "").startsWith("image/") ? "skip" : "file";

/** Content blocks of the messages format, at the top level and inside a tool result. */
function messagesBlock(prefix: string): Record<string, Rule> {
  return {
    [`${prefix}.type`]: true,
    [`${prefix}.id`]: "id",
    [`${prefix}.tool_use_id`]: "id",
    [`${prefix}.signature`]: true,
    [`${prefix}.data`]: (_, holder) => holder.type === "redacted_thinking",
    [`${prefix}.cache_control`]: true,
    [`${prefix}.source.type`]: true,
    [`${prefix}.source.media_type`]: true,
    [`${prefix}.source.file_id`]: "file-ref",
    [`${prefix}.source.data`]: sourceData,
    [`${prefix}.citations.*.type`]: true,
  };
}

function chatPart(prefix: string): Record<string, Rule> {
  return {
    [`${prefix}.type`]: true,
    [`${prefix}.image_url.url`]: inlineImage,
    [`${prefix}.image_url.detail`]: true,
    [`${prefix}.input_audio.data`]: true,
    [`${prefix}.input_audio.format`]: true,
    [`${prefix}.file.file_id`]: "file-ref",
    [`${prefix}.file.file_data`]: "file",
  };
}

const CHAT_JUDGED_ROLES = new Set(["user", "tool"]);

export const CHAT_FORMAT = bodyFormat(
  {
    model: true,
    "messages.*.role": true,
    "messages.*.tool_call_id": "id",
    "messages.*.audio.id": "id",
    "messages.*.tool_calls.*.id": "id",
    "messages.*.tool_calls.*.type": true,
    ...chatPart("messages.*.content.*"),
    "tools.*.type": true,
    tool_choice: isString,
    "tool_choice.type": true,
    "response_format.type": true,
    "prediction.type": true,
    reasoning_effort: true,
    service_tier: true,
    verbosity: true,
    "modalities.*": true,
    "audio.voice": true,
    "audio.format": true,
    "web_search_options.search_context_size": true,
  },
  (turn, field) => field === "content" && CHAT_JUDGED_ROLES.has(turn.role as string),
);

export const MESSAGES_FORMAT = bodyFormat(
  {
    model: true,
    "messages.*.role": true,
    ...messagesBlock("messages.*.content.*"),
    ...messagesBlock("messages.*.content.*.content.*"),
    ...messagesBlock("system.*"),
    "tools.*.type": true,
    "tools.*.cache_control": true,
    "tool_choice.type": true,
    "thinking.type": true,
    service_tier: true,
  },
  (turn, field) => field === "content" && turn.role === "user",
);

/** Input items of the Responses API: messages with content parts, tool calls and their outputs, reasoning. */
function responsesItem(prefix: string): Record<string, Rule> {
  return {
    [`${prefix}.type`]: true,
    [`${prefix}.role`]: true,
    [`${prefix}.id`]: "id",
    [`${prefix}.call_id`]: "id",
    [`${prefix}.status`]: true,
    [`${prefix}.encrypted_content`]: true,
    [`${prefix}.summary.*.type`]: true,
    [`${prefix}.content.*.type`]: true,
    [`${prefix}.content.*.image_url`]: inlineImage,
    [`${prefix}.content.*.detail`]: true,
    [`${prefix}.content.*.file_id`]: "file-ref",
    [`${prefix}.content.*.file_url`]: "file-ref",
    [`${prefix}.content.*.file_data`]: "file",
    [`${prefix}.result`]: true,
    [`${prefix}.content.*.annotations.*.type`]: true,
  };
}

export const RESPONSES_FORMAT = bodyFormat(
  {
    model: true,
    ...responsesItem("input.*"),
    "tools.*.type": true,
    // An MCP tool's credential for the caller's own server, given to the provider on purpose.
    "tools.*.authorization": true,
    "tools.*.headers": true,
    tool_choice: isString,
    "tool_choice.type": true,
    "prompt.id": true,
    "prompt.version": true,
    "text.format.type": true,
    "text.verbosity": true,
    "reasoning.effort": true,
    "reasoning.summary": true,
    previous_response_id: true,
    conversation: isString,
    "conversation.id": true,
    "include.*": true,
    service_tier: true,
    truncation: true,
    prompt_cache_key: true,
  },
  // The caller's turns, the results of every tool (functions, custom tools, shells, MCP servers, code runs) and a stored
  // prompt's variables; instructions and the model's own turns are read for secrets only.
  (item, field) =>
    (field === "content" && item.role === "user" && (item.type ?? "message") === "message") || field === "output" || field === "outputs",
  { turns: "input", textTurn: true, judgedMembers: ["prompt"] },
);

export const EMBEDDINGS_FORMAT = bodyFormat({ model: true, encoding_format: true }, () => false);

export const chatTexts = (body: Json): TextSlot[] => requestTexts(body, CHAT_FORMAT);
export const messagesTexts = (body: Json): TextSlot[] => requestTexts(body, MESSAGES_FORMAT);
export const responsesTexts = (body: Json): TextSlot[] => requestTexts(body, RESPONSES_FORMAT);
/**
 * Embedding inputs are documents, not instructions to a model: scanned for secrets and personal data.
 * Token ids are read with the target model's `vocabulary` (token-id-texts.ts); without one they are refused.
 */
export const embeddingTexts = (body: Json, vocabulary?: Vocabulary): TextSlot[] => [
  ...requestTexts(body, EMBEDDINGS_FORMAT),
  ...tokenIdTexts(body, vocabulary),
];
