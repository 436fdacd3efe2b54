/**
 * Named members of a JSON object, read without parsing the rest. An embeddings answer
 * is a few hundred bytes of envelope around tens of kilobytes of numbers, and
 * `JSON.parse` turns every one of them into a double (33 µs for one 1,536-dimension
 * vector) when all the gateway reads is `model` and `usage`. Here the object's top
 * level is walked and checked (keys, colons, commas, braces); a member not asked for
 * is skipped by its brackets, found with native searches (`indexOf`, a character
 * class), and only the members asked for are parsed. For answers of text the whole
 * parse is as cheap, so this is for answers that are mostly numbers.
 */

/** The characters that open or close a nested value: a skipped value's extent, and where a string starts. */
const STRUCTURE = /[[\]{}"]/g;

const isBlank = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Past the string whose opening quote is at `open`; -1 when it never closes. */
function stringEnd(text: string, open: number): number {
  let j = open + 1;
  for (;;) {
    j = text.indexOf('"', j);
    if (j < 0) return -1;
    // A quote is escaped by an odd number of backslashes before it.
    let k = j - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((j - k) % 2 === 1) return j + 1;
    j++;
  }
}

/** Past the value that starts at `i`, its syntax unchecked (it may not be asked for); -1 when it never ends. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return stringEnd(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    STRUCTURE.lastIndex = i;
    // `test` moves `lastIndex` past the match without building a match array.
    while (STRUCTURE.test(text)) {
      const at = STRUCTURE.lastIndex - 1;
      const d = text.charCodeAt(at);
      if (d === 34) {
        const end = stringEnd(text, at);
        if (end < 0) return -1;
        STRUCTURE.lastIndex = end;
      } else if (d === 123 || d === 91) depth++;
      else if (--depth === 0) return at + 1;
    }
    return -1;
  }
  // A number, true, false or null: up to the next separator (NaN past the end stops it too).
  let j = i;
  for (;;) {
    const d = text.charCodeAt(j);
    if (d !== d || d === 44 || d === 125 || d === 93 || isBlank(d)) return j;
    j++;
  }
}

/**
 * The members of the JSON object `text` named in `names`, each parsed; a name the
 * object lacks is absent. Null when `text` is not one JSON object, or a member asked
 * for is not valid JSON. A repeated key keeps its last value, as `JSON.parse` does.
 */
export function jsonObjectMembers(text: string, names: readonly string[]): Record<string, unknown> | null {
  const n = text.length;
  let i = 0;
  const blanks = () => {
    while (i < n && isBlank(text.charCodeAt(i))) i++;
  };
  blanks();
  if (text.charCodeAt(i) !== 123) return null;
  i++;
  blanks();
  const out: Record<string, unknown> = {};
  if (text.charCodeAt(i) === 125) {
    i++;
    blanks();
    return i === n ? out : null;
  }
  for (;;) {
    blanks();
    if (text.charCodeAt(i) !== 34) return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return null;
    const raw = text.slice(i + 1, keyEnd - 1);
    let key = raw;
    if (raw.includes("\\")) {
      try {
        key = JSON.parse(text.slice(i, keyEnd)) as string;
      } catch {
        return null;
      }
    }
    i = keyEnd;
    blanks();
    if (text.charCodeAt(i) !== 58) return null;
    i++;
    blanks();
    const end = valueEnd(text, i);
    if (end <= i) return null;
    if (names.includes(key)) {
      try {
        out[key] = JSON.parse(text.slice(i, end));
      } catch {
        return null;
      }
    }
    i = end;
    blanks();
    const c = text.charCodeAt(i++);
    if (c === 44) continue;
    if (c !== 125) return null;
    blanks();
    return i === n ? out : null;
  }
}
