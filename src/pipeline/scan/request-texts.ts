/**
 * Every text a call sends to a provider. The walk takes every string in the body
 * (values, and the keys of free-form objects such as `metadata` or a JSON schema)
 * except an explicit allowlist of structural fields per wire format: roles, ids,
 * enums, opaque signatures and binary media. Anything a format adds later is
 * scanned until it is named here, so a new field can never slip through unseen.
 *
 * Injection is judged in the caller's turns and tool results only; the owner's
 * system prompt, the model's own earlier turns and the tool definitions are scanned
 * for secrets and personal data. Each slot can be rewritten, for redaction.
 */

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
}

type Json = Record<string, unknown>;
/** A value the walk leaves unscanned: always, or when the test holds (`holder` is the object it sits in). */
type Skip = true | ((value: unknown, holder: Json) => boolean);

interface Shape {
  skip?: Skip;
  /** Named members; `*` stands for any array index or member name. */
  members: Map<string, Shape>;
}

/** Builds the allowlist tree from `path.to.*.field` patterns. */
function shapeOf(skips: Record<string, Skip>): Shape {
  const root: Shape = { members: new Map() };
  for (const [pattern, skip] of Object.entries(skips)) {
    let node = root;
    for (const seg of pattern.split(".")) {
      let next = node.members.get(seg);
      if (!next) node.members.set(seg, (next = { members: new Map() }));
      node = next;
    }
    node.skip = skip;
  }
  return root;
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
  skips: Record<string, Skip>,
  judged: BodyFormat["judged"],
  turns: Pick<BodyFormat, "turns" | "textTurn" | "judgedMembers"> = { turns: "messages" },
): BodyFormat {
  return { shape: shapeOf(skips), judged, ...turns };
}

const isString = (v: unknown) => typeof v === "string";
/** Inline images and audio are binary media, not text; an `https:` image URL is still read (it can carry credentials). */
const inlineImage = (v: unknown) => typeof v === "string" && v.startsWith("data:image/");
const base64Source = (_: unknown, holder: Json) => holder.type === "base64";

/** Content blocks of the messages format, at the top level and inside a tool result. */
function messagesBlock(prefix: string): Record<string, Skip> {
  return {
    [`${prefix}.type`]: true,
    [`${prefix}.id`]: true,
    [`${prefix}.tool_use_id`]: true,
    [`${prefix}.signature`]: true,
    [`${prefix}.data`]: (_, holder) => holder.type === "redacted_thinking",
    [`${prefix}.cache_control`]: true,
    [`${prefix}.source.type`]: true,
    [`${prefix}.source.media_type`]: true,
    [`${prefix}.source.file_id`]: true,
    [`${prefix}.source.data`]: base64Source,
    [`${prefix}.citations.*.type`]: true,
  };
}

function chatPart(prefix: string): Record<string, Skip> {
  return {
    [`${prefix}.type`]: true,
    [`${prefix}.image_url.url`]: inlineImage,
    [`${prefix}.image_url.detail`]: true,
    [`${prefix}.input_audio.data`]: true,
    [`${prefix}.input_audio.format`]: true,
    [`${prefix}.file.file_id`]: true,
  };
}

const CHAT_JUDGED_ROLES = new Set(["user", "tool"]);

export const CHAT_FORMAT = bodyFormat(
  {
    model: true,
    "messages.*.role": true,
    "messages.*.tool_call_id": true,
    "messages.*.audio.id": true,
    "messages.*.tool_calls.*.id": true,
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

/** A file given inline as binary (a PDF, an image): not text. A `text/*` data URL, or plain text, is read. */
const binaryDataUrl = (v: unknown) => typeof v === "string" && /^data:(?!text\/)[\w.+-]+\/[\w.+-]+;base64,/i.test(v);

/** Input items of the Responses API: messages with content parts, tool calls and their outputs, reasoning. */
function responsesItem(prefix: string): Record<string, Skip> {
  return {
    [`${prefix}.type`]: true,
    [`${prefix}.role`]: true,
    [`${prefix}.id`]: true,
    [`${prefix}.call_id`]: true,
    [`${prefix}.status`]: true,
    [`${prefix}.encrypted_content`]: true,
    [`${prefix}.summary.*.type`]: true,
    [`${prefix}.content.*.type`]: true,
    [`${prefix}.content.*.image_url`]: inlineImage,
    [`${prefix}.content.*.detail`]: true,
    [`${prefix}.content.*.file_id`]: true,
    [`${prefix}.content.*.file_data`]: binaryDataUrl,
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
  if (shape?.skip && (shape.skip === true || shape.skip(value, holder as Json))) return;
  if (typeof value === "string") {
    w.out.push({ text: value, path, injection, set: (t) => ((holder as Json)[key as string] = t) });
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
