/**
 * Every text a call sends to a provider, per wire format, with where it sits and
 * whether injection is judged there: the caller's turns and tool results are; the
 * owner's system prompt, the model's own earlier turns and the tool definitions are
 * not (they are scanned for secrets and personal data only). Each slot can be
 * rewritten, for redaction.
 */

export interface TextSlot {
  text: string;
  /** Where it is, for error messages (`messages.2.content`). */
  path: string;
  injection: boolean;
  set(text: string): void;
}

type Json = Record<string, unknown>;

function leaves(value: unknown, path: string, injection: boolean, set: (v: unknown) => void, out: TextSlot[]): void {
  if (typeof value === "string") out.push({ text: value, path, injection, set });
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}.${i}`, injection, (n) => (value[i] = n), out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) leaves(v, `${path}.${k}`, injection, (n) => ((value as Json)[k] = n), out);
}

/** A content value: a string, or parts/blocks whose `text` (and nested tool results) are texts. Images and other binary parts are not. */
function content(holder: Json, key: string, path: string, injection: boolean, out: TextSlot[]): void {
  const value = holder[key];
  if (typeof value === "string") {
    out.push({ text: value, path: `${path}.${key}`, injection, set: (t) => (holder[key] = t) });
    return;
  }
  if (!Array.isArray(value)) return;
  value.forEach((part, i) => {
    if (!part || typeof part !== "object") return;
    const p = part as Json;
    const at = `${path}.${key}.${i}`;
    if (typeof p.text === "string") out.push({ text: p.text, path: `${at}.text`, injection, set: (t) => (p.text = t) });
    if (p.type === "tool_result") content(p, "content", at, true, out);
    if (p.type === "tool_use") leaves(p.input, `${at}.input`, false, (n) => (p.input = n), out);
  });
}

/**
 * Tool definitions are the application's own text, like the system prompt, so they
 * are not judged for injection; but they do reach the provider, and a description or
 * a schema's `default`/`enum`/`example` can carry a pasted token or a customer's
 * e-mail, so every string in them is scanned for secrets and personal data.
 * `fields` names the description and schema keys of one tool in this wire format.
 */
function toolDefinitions(body: Json, holderOf: (tool: Json) => Json | undefined, holderPath: string, fields: readonly string[], out: TextSlot[]): void {
  const tools = body.tools;
  if (!Array.isArray(tools)) return;
  tools.forEach((tool, i) => {
    const holder = tool && typeof tool === "object" ? holderOf(tool as Json) : undefined;
    if (!holder || typeof holder !== "object") return;
    for (const field of fields) {
      if (holder[field] === undefined) continue;
      leaves(holder[field], `tools.${i}${holderPath}.${field}`, false, (n) => (holder[field] = n), out);
    }
  });
}

const JUDGED_ROLES = new Set(["user", "tool"]);

export function chatTexts(body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  (body.messages as Json[]).forEach((m, i) => {
    const path = `messages.${i}`;
    content(m, "content", path, JUDGED_ROLES.has(m.role as string), out);
    const calls = m.tool_calls as Json[] | undefined;
    calls?.forEach((c, j) => {
      const fn = c?.function as Json | undefined;
      if (fn && typeof fn.arguments === "string") out.push({ text: fn.arguments, path: `${path}.tool_calls.${j}.function.arguments`, injection: false, set: (t) => (fn.arguments = t) });
    });
  });
  toolDefinitions(body, (t) => t.function as Json | undefined, ".function", ["description", "parameters"], out);
  return out;
}

export function messagesTexts(body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  content(body, "system", "", false, out);
  (body.messages as Json[]).forEach((m, i) => content(m, "content", `messages.${i}`, m.role === "user", out));
  toolDefinitions(body, (t) => t, "", ["description", "input_schema"], out);
  return out.map((s) => ({ ...s, path: s.path.replace(/^\./, "") }));
}

/** Embedding inputs are documents, not instructions to a model: scanned for secrets and personal data. */
export function embeddingTexts(body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  const input = body.input;
  if (typeof input === "string") out.push({ text: input, path: "input", injection: false, set: (t) => (body.input = t) });
  else if (Array.isArray(input)) input.forEach((v, i) => typeof v === "string" && out.push({ text: v, path: `input.${i}`, injection: false, set: (t) => (input[i] = t) }));
  return out;
}
