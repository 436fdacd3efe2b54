/**
 * Every string inside a JSON value (tool arguments, structured results), each with its
 * path and a setter, so a scan can read them all and redaction can rewrite one in place.
 * Bounded: a hostile value cannot make the walk deeper or longer than these limits.
 */

const MAX_DEPTH = 32;
const MAX_STRINGS = 10_000;

export interface StringSlot {
  /** `arguments.query`, `content.0.text`. */
  path: string;
  text: string;
  set(text: string): void;
}

/** The string slots of `value` (object members and array items), depth first. */
export function jsonStrings(value: unknown, path: string): StringSlot[] {
  const out: StringSlot[] = [];
  const walk = (holder: Record<string, unknown> | unknown[], key: string | number, at: string, depth: number) => {
    if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
    const v = (holder as Record<string | number, unknown>)[key];
    if (typeof v === "string") {
      out.push({ path: at, text: v, set: (t) => ((holder as Record<string | number, unknown>)[key] = t) });
    } else if (Array.isArray(v)) {
      v.forEach((_, i) => walk(v, i, `${at}.${i}`, depth + 1));
    } else if (v !== null && typeof v === "object") {
      for (const k of Object.keys(v)) walk(v as Record<string, unknown>, k, `${at}.${k}`, depth + 1);
    }
  };
  const root = { value };
  walk(root, "value", path, 0);
  return out;
}
