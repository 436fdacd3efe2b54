/**
 * Every string inside a JSON value (tool arguments, structured results), each with its
 * path and a setter, so a scan can read them all and redaction can rewrite one in place.
 * Member names are strings too (a name can carry a credential or an instruction as well
 * as a value can). Bounded: a hostile value cannot make the walk deeper or longer than
 * these limits, and the walk says when it stopped short, so what it did not read is
 * refused rather than passed unscanned.
 */

const MAX_DEPTH = 32;
const MAX_STRINGS = 10_000;

/** Why a value was not read whole, for the message of a refusal. */
export const TOO_COMPLEX = `nested deeper than ${MAX_DEPTH} levels or holding more than ${MAX_STRINGS} strings, more than the gateway scans`;

export interface StringSlot {
  /** `arguments.*`, `content.0.text`, `structuredContent.*.2` (member names as `*`). */
  path: string;
  text: string;
  set(text: string): void;
}

export interface JsonStrings {
  slots: StringSlot[];
  /** False when the value holds text beyond the limits, which no slot covers. */
  complete: boolean;
}

const holdsText = (v: unknown): boolean =>
  typeof v === "string" || (Array.isArray(v) ? v.length > 0 : v !== null && typeof v === "object" && Object.keys(v).length > 0);

/** The string slots of `value` (member names, object members and array items), depth first. */
export function jsonStrings(value: unknown, path: string): JsonStrings {
  const out: StringSlot[] = [];
  let complete = true;
  // `key()`: the member's name now (a redacted name renames it before its value is set).
  const walk = (holder: Record<string | number, unknown>, key: () => string | number, at: string, depth: number) => {
    const v = holder[key()];
    if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) {
      if (holdsText(v)) complete = false;
      return;
    }
    if (typeof v === "string") {
      out.push({ path: at, text: v, set: (t) => (holder[key()] = t) });
    } else if (Array.isArray(v)) {
      v.forEach((_, i) => walk(v as unknown as Record<number, unknown>, () => i, `${at}.${i}`, depth + 1));
    } else if (v !== null && typeof v === "object") {
      const members = v as Record<string, unknown>;
      for (const k of Object.keys(members)) {
        if (out.length >= MAX_STRINGS) {
          complete = false;
          return;
        }
        let name = k;
        // A member's name is text from the value: paths (in messages and audit) show it as `*`.
        const where = `${at}.*`;
        out.push({ path: `${where} (name)`, text: k, set: (t) => (name = renameMember(members, name, t)) });
        walk(members, () => name, where, depth + 1);
      }
    }
  };
  walk({ value }, () => "value", path, 0);
  return { slots: out, complete };
}

/** A member renamed (a redacted name), its value kept; member order is not preserved. Returns the new name. */
function renameMember(holder: Record<string, unknown>, from: string, to: string): string {
  if (from !== to) {
    const value = holder[from];
    delete holder[from];
    holder[to] = value;
  }
  return to;
}
