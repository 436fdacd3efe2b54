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
import { type FileText, readFileData } from "./file-texts.ts";

export interface TextSlot {
  text: string;
  /** Where it is, for error messages (`messages.2.content`). */
  path: string;
  injection: boolean;
  /** Rewrites the text in the body; absent for a joined slot, which is only read. */
  set?(text: string): void;
  /**
   * A joined slot: the text parts of one content array read as one text, so that a
   * credential or an attack split across two parts is seen whole. These are the
   * offsets where one part ends and the next begins; only findings that cross one
   * count here (the parts themselves are slots of their own).
   */
  joins?: readonly number[];
  /** A marker, not a text: a file whose content the scanner could not read (binary, or given by reference). */
  unread?: true;
}

type Json = Record<string, unknown>;
/**
 * How the walk reads a value: `skip` (structural), `text` (the default), `id` (text judged
 * for injection wherever it sits), `file` (inline file content, decoded), `file-ref` (a
 * file given by id or URL: the reference is read, the content counted unread).
 */
type Reading = "skip" | "text" | "id" | "file" | "file-ref";
/** `true` is `skip`; a test decides per value (`holder` is the object it sits in), `true`/`false` meaning skip or read. */
type Rule = true | Reading | ((value: unknown, holder: Json) => Reading | boolean);

interface Shape {
  rule?: Rule;
  /** Named members; `*` stands for any array index or member name. */
  members: Map<string, Shape>;
}

/** Builds the allowlist tree from `path.to.*.field` patterns. */
function shapeOf(rules: Record<string, Rule>): Shape {
  const root: Shape = { members: new Map() };
  for (const [pattern, rule] of Object.entries(rules)) {
    let node = root;
    for (const seg of pattern.split(".")) {
      let next = node.members.get(seg);
      if (!next) node.members.set(seg, (next = { members: new Map() }));
      node = next;
    }
    node.rule = rule;
  }
  return root;
}

function readingOf(rule: Rule | undefined, value: unknown, holder: Json): Reading {
  if (rule === undefined) return "text";
  if (rule === true) return "skip";
  if (typeof rule === "string") return rule;
  const r = rule(value, holder);
  return r === true ? "skip" : r === false ? "text" : r;
}

export interface BodyFormat {
  shape: Shape;
  /** The top-level member holding the conversation's turns (`messages`, or the Responses API's `input`). */
  turns: string;
  /** Whether the subtree at `<turns>.<turn>.<field>` is the caller's, where injection is judged. */
  judged: (turn: Json, field: string) => boolean;
  /** The turns member may be one string, the caller's own turn (the Responses API's `input: "..."`). */
  textTurn?: boolean;
  /** Top-level members outside the turns whose texts are the caller's too (the Responses API's `prompt` variables). */
  judgedMembers?: readonly string[];
}

/** The allowlist of one wire format, and where injection is judged. A new format is one call. */
export function bodyFormat(
  skips: Record<string, Rule>,
  judged: BodyFormat["judged"],
  turns: Pick<BodyFormat, "turns" | "textTurn" | "judgedMembers"> = { turns: "messages" },
): BodyFormat {
  return { shape: shapeOf(skips), judged, ...turns };
}

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

interface Walk {
  out: TextSlot[];
}

/** `shape` undefined: a free-form subtree (metadata, a schema, tool input), whose member names are texts too. */
function visit(
  w: Walk,
  value: unknown,
  holder: Json | unknown[],
  key: string | number,
  shape: Shape | undefined,
  path: string,
  injection: boolean,
): void {
  const reading = readingOf(shape?.rule, value, holder as Json);
  if (reading === "skip") return;
  if (typeof value === "string") {
    const put = (t: string) => ((holder as Json)[key as string] = t);
    if (reading === "file") return readFile(w, value, holder as Json, path, injection, put);
    if (reading === "file-ref") w.out.push({ text: "", path, injection: false, unread: true });
    w.out.push({ text: value, path, injection: injection || reading === "id", set: put });
    return;
  }
  if (!value || typeof value !== "object") return;
  if (Array.isArray(value)) {
    const item = shape?.members.get("*");
    for (let i = 0; i < value.length; i++) visit(w, value[i], value, i, item, `${path}.${i}`, injection);
    joinTextParts(w, value, path, injection);
    return;
  }
  const obj = value as Json;
  for (const name of Object.keys(obj)) {
    const member = shape ? (shape.members.get(name) ?? shape.members.get("*")) : undefined;
    if (!shape) w.out.push({ text: name, path: `${path}.${name}`, injection, set: (t) => renameMember(obj, name, t) });
    visit(w, obj[name], obj, name, member, `${path}.${name}`, injection);
  }
}

/** Inline file content: its decoded text, written back in the same form when redaction changes it; a binary file is a marker. */
function readFile(w: Walk, value: string, holder: Json, path: string, injection: boolean, put: (t: string) => void): void {
  const mediaType = typeof holder.media_type === "string" ? holder.media_type : undefined;
  const file: FileText | null = readFileData(value, mediaType);
  if (!file || file.unread) w.out.push({ text: "", path, injection: false, unread: true });
  if (file) w.out.push({ text: file.text, path, injection, set: (t) => put(file.encode(t)) });
}

function renameMember(obj: Json, from: string, to: string): void {
  const v = obj[from];
  delete obj[from];
  obj[to] = v;
}

/** Two or more parts with a `text` string are also read joined, as the model will read them. */
function joinTextParts(w: Walk, parts: unknown[], path: string, injection: boolean): void {
  let text = "";
  let count = 0;
  const joins: number[] = [];
  for (const p of parts) {
    const t = p && typeof p === "object" ? (p as Json).text : undefined;
    if (typeof t !== "string") continue;
    if (count++ > 0) joins.push(text.length);
    text += t;
  }
  if (count > 1) w.out.push({ text, path, injection, joins });
}

/** Every text of `body` in `format`, in document order. */
export function requestTexts(body: Json, format: BodyFormat): TextSlot[] {
  const w: Walk = { out: [] };
  for (const top of Object.keys(body)) {
    const shape = format.shape.members.get(top);
    const value = body[top];
    if (top === format.turns && format.textTurn && typeof value === "string") {
      visit(w, value, body, top, shape, top, true);
    } else if (Array.isArray(value) && top === format.turns) {
      const turnShape = shape?.members.get("*");
      value.forEach((turn, i) => {
        if (!turn || typeof turn !== "object" || Array.isArray(turn)) return visit(w, turn, value, i, turnShape, `${top}.${i}`, false);
        const t = turn as Json;
        for (const field of Object.keys(t)) {
          const member = turnShape ? (turnShape.members.get(field) ?? turnShape.members.get("*")) : undefined;
          visit(w, t[field], t, field, member, `${top}.${i}.${field}`, format.judged(t, field));
        }
      });
    } else visit(w, value, body, top, shape, top, format.judgedMembers?.includes(top) === true);
  }
  return w.out;
}

export const chatTexts = (body: Json): TextSlot[] => requestTexts(body, CHAT_FORMAT);
export const messagesTexts = (body: Json): TextSlot[] => requestTexts(body, MESSAGES_FORMAT);
export const responsesTexts = (body: Json): TextSlot[] => requestTexts(body, RESPONSES_FORMAT);
/** Embedding inputs are documents, not instructions to a model: scanned for secrets and personal data. */
export const embeddingTexts = (body: Json): TextSlot[] => requestTexts(body, EMBEDDINGS_FORMAT);
