/**
 * JSON string escapes read as the text they encode. A tool result usually arrives as
 * JSON text, where an injected line break is the two characters `\n`, a quote `\"` and
 * a non-ASCII letter may be `\u00e9`: rules that look for a line start, a quote or a
 * word after a line break miss there, so such a text is judged once more decoded.
 */

/** The escapes that change how the rules read a text; `\\`, `\/`, `\b` and `\f` alone change nothing they look for. */
const TELLING = /\\(?:[nrt"]|u[0-9a-fA-F]{4})/;
/** Every JSON string escape, left to right, so `\\n` stays a backslash and an `n`. */
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;
const SIMPLE: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * The text with its JSON string escapes decoded (once: what they decode to is not
 * decoded again), or null when it holds none that matter. Text without a backslash
 * costs one search for it.
 */
export function decodeJsonEscapes(text: string): string | null {
  if (text.indexOf("\\") < 0 || !TELLING.test(text)) return null;
  return text.replace(ESCAPE, (_, hex: string | undefined, simple: string | undefined) =>
    hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (SIMPLE[simple as string] as string),
  );
}

/** Where each character of the decoded text, and its end, stands in `text`: a finding in the decoding named at its raw place. */
export function rawOffsets(text: string): number[] {
  const out: number[] = [];
  let last = 0;
  for (const m of text.matchAll(ESCAPE)) {
    for (let i = last; i < m.index; i++) out.push(i);
    out.push(m.index);
    last = m.index + m[0].length;
  }
  for (let i = last; i <= text.length; i++) out.push(i);
  return out;
}
