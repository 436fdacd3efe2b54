/**
 * The walk behind request-texts.ts: every string of a body (values, and the member
 * names of free-form objects), read as a format's allowlist tree says (skip, text, id,
 * file, file reference), each as a slot the scanner reads and redaction can rewrite.
 */
import { type FileText, readFileData } from "./file-texts.ts";

export interface TextSlot {
  text: string;
  /** Where it is, for error messages (`messages.2.content`). */
  path: string;
  /** The same path with the names the caller chose (free-form members) as `*`: what may be kept (the audit log). */
  where: string;
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

export type Json = Record<string, unknown>;
/**
 * How the walk reads a value: `skip` (structural), `text` (the default), `id` (text judged
 * for injection wherever it sits), `file` (inline file content, decoded), `file-ref` (a
 * file given by id or URL: the reference is read, the content counted unread).
 */
export type Reading = "skip" | "text" | "id" | "file" | "file-ref";
/** `true` is `skip`; a test decides per value (`holder` is the object it sits in), `true`/`false` meaning skip or read. */
export type Rule = true | Reading | ((value: unknown, holder: Json) => Reading | boolean);

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

interface Walk {
  out: TextSlot[];
}

/** Where a value is: its path, and the same path with every name the caller chose (not named by the format) as `*`. */
interface At {
  path: string;
  where: string;
}

/** One step down: `known` when the format names the member (or it is an index), so the safe path may show it. */
function step(at: At, seg: string | number, known: boolean): At {
  const shown = typeof seg === "number" || known ? String(seg) : "*";
  return at.path ? { path: `${at.path}.${seg}`, where: `${at.where}.${shown}` } : { path: String(seg), where: shown };
}

const ROOT: At = { path: "", where: "" };
/** A member name the format does not list, outside free-form objects: shown when it reads like a field name (no credential or personal value is lowercase letters alone). */
const FIELD_NAME = /^[a-z][a-z_]{0,39}$/;
/** Whether the safe path may show `name`, a member of an object read with `shape` (undefined: free-form, the caller's names). */
const shownName = (shape: Shape | undefined, name: string) => shape !== undefined && (shape.members.has(name) || FIELD_NAME.test(name));

/** `shape` undefined: a free-form subtree (metadata, a schema, tool input), whose member names are texts too. */
function visit(
  w: Walk,
  value: unknown,
  holder: Json | unknown[],
  key: string | number,
  shape: Shape | undefined,
  at: At,
  injection: boolean,
): void {
  const reading = readingOf(shape?.rule, value, holder as Json);
  if (reading === "skip") return;
  if (typeof value === "string") {
    const put = (t: string) => ((holder as Json)[key as string] = t);
    if (reading === "file") return readFile(w, value, holder as Json, at, injection, put);
    if (reading === "file-ref") w.out.push({ text: "", ...at, injection: false, unread: true });
    w.out.push({ text: value, ...at, injection: injection || reading === "id", set: put });
    return;
  }
  if (!value || typeof value !== "object") return;
  if (Array.isArray(value)) {
    const item = shape?.members.get("*");
    for (let i = 0; i < value.length; i++) visit(w, value[i], value, i, item, step(at, i, true), injection);
    joinTextParts(w, value, at, injection);
    return;
  }
  const obj = value as Json;
  for (const name of Object.keys(obj)) {
    const member = shape ? (shape.members.get(name) ?? shape.members.get("*")) : undefined;
    const next = step(at, name, shownName(shape, name));
    if (!shape) w.out.push({ text: name, ...next, injection, set: (t) => renameMember(obj, name, t) });
    visit(w, obj[name], obj, name, member, next, injection);
  }
}

/** Inline file content: its decoded text, written back in the same form when redaction changes it; a binary file is a marker. */
function readFile(w: Walk, value: string, holder: Json, at: At, injection: boolean, put: (t: string) => void): void {
  const mediaType = typeof holder.media_type === "string" ? holder.media_type : undefined;
  const file: FileText | null = readFileData(value, mediaType);
  if (!file || file.unread) w.out.push({ text: "", ...at, injection: false, unread: true });
  if (file) w.out.push({ text: file.text, ...at, injection, set: (t) => put(file.encode(t)) });
}

function renameMember(obj: Json, from: string, to: string): void {
  const v = obj[from];
  delete obj[from];
  obj[to] = v;
}

/** Two or more parts with a `text` string are also read joined, as the model will read them. */
function joinTextParts(w: Walk, parts: unknown[], at: At, injection: boolean): void {
  let text = "";
  let count = 0;
  const joins: number[] = [];
  for (const p of parts) {
    const t = p && typeof p === "object" ? (p as Json).text : undefined;
    if (typeof t !== "string") continue;
    if (count++ > 0) joins.push(text.length);
    text += t;
  }
  if (count > 1) w.out.push({ text, ...at, injection, joins });
}

/** Every text of `body` in `format`, in document order. */
export function requestTexts(body: Json, format: BodyFormat): TextSlot[] {
  const w: Walk = { out: [] };
  for (const top of Object.keys(body)) {
    const shape = format.shape.members.get(top);
    const value = body[top];
    const at = step(ROOT, top, shownName(format.shape, top));
    if (top === format.turns && format.textTurn && typeof value === "string") {
      visit(w, value, body, top, shape, at, true);
    } else if (Array.isArray(value) && top === format.turns) {
      const turnShape = shape?.members.get("*");
      value.forEach((turn, i) => {
        const turnAt = step(at, i, true);
        if (!turn || typeof turn !== "object" || Array.isArray(turn)) return visit(w, turn, value, i, turnShape, turnAt, false);
        const t = turn as Json;
        for (const field of Object.keys(t)) {
          const member = turnShape ? (turnShape.members.get(field) ?? turnShape.members.get("*")) : undefined;
          const fieldAt = step(turnAt, field, shownName(turnShape, field));
          visit(w, t[field], t, field, member, fieldAt, format.judged(t, field));
        }
      });
    } else visit(w, value, body, top, shape, at, format.judgedMembers?.includes(top) === true);
  }
  return w.out;
}
