/**
 * What a caller's schema may make the simulator generate. json-schema-faker does what a
 * schema asks, synchronously: `minLength: 50000000`, `minItems` in the millions, arrays
 * of arrays of arrays, or a pattern such as `((a{1000}){1000}){1000}` hold the event loop
 * for as long as that takes, so one sandbox call could stop the gateway. The schema is
 * first copied with its counts clamped and its over-long patterns left out (the answer
 * then fits the clamped schema, as a model's answer might not fit an absurd one), and a
 * budget of values and characters stops what multiplies across nesting.
 */

/** Most items, properties and contained items one array or object is given. */
export const MAX_ITEMS = 50;
/** Longest string: also the longest a pattern may generate before it is left out. */
export const MAX_STRING = 2_000;
/** Values (each string, number, object, array...) one answer may hold. */
export const MAX_VALUES = 5_000;
/** Characters of string values one answer may hold. */
export const MAX_CHARS = 1_000_000;

const COUNTS: Record<string, number> = {
  minItems: MAX_ITEMS,
  maxItems: MAX_ITEMS,
  minContains: MAX_ITEMS,
  maxContains: MAX_ITEMS,
  minProperties: MAX_ITEMS,
  maxProperties: MAX_ITEMS,
  minLength: MAX_STRING,
  maxLength: MAX_STRING,
};

/** Members whose value is data, not a schema: copied as they are. */
const DATA = new Set(["const", "enum", "default", "examples", "example", "required"]);

/**
 * An upper bound on the length of a string json-schema-faker generates for `pattern`
 * (it repeats `*` and `+` at most 5 times, `{n,}` at most n+5). Branches of an
 * alternation are added rather than compared: an upper bound is all that is needed.
 */
export function patternLengthBound(pattern: string): number {
  const open: number[] = [];
  let total = 0;
  let last = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      last = 1;
      total += 1;
    } else if (c === "[") {
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      last = 1;
      total += 1;
    } else if (c === "(") {
      open.push(total);
      total = 0;
      last = 0;
    } else if (c === ")") {
      last = total;
      total = (open.pop() ?? 0) + total;
    } else if (c === "*" || c === "+") {
      total += last * 4;
      last *= 5;
    } else if (c === "{" && /^\{\d+(?:,\d*)?\}/.test(pattern.slice(i, i + 40))) {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i)) as RegExpExecArray;
      const max = m[2] === undefined ? Number(m[1]) : m[2] === "" ? Number(m[1]) + 5 : Number(m[2]);
      total += last * (max - 1);
      last *= max;
      i += m[0].length - 1;
    } else if (c !== "?" && c !== "|" && c !== "^" && c !== "$") {
      last = 1;
      total += 1;
    }
  }
  return open.reduce((sum, t) => sum + t, total);
}

/** Members whose value names schemas (`properties`, `$defs`...): each named value is a schema, whatever its name. */
const NAMED_SCHEMAS = new Set(["properties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/**
 * A copy of `schema` with every count clamped and every pattern that could generate
 * more than MAX_STRING left out. A part met twice (a schema built in code, not parsed
 * from JSON, may share or loop) is copied once.
 */
export function boundedSchema(schema: unknown, copies = new WeakMap<object, unknown>()): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  const copied = copies.get(schema);
  if (copied !== undefined) return copied;
  if (Array.isArray(schema)) {
    const list: unknown[] = [];
    copies.set(schema, list);
    for (const item of schema) list.push(boundedSchema(item, copies));
    return list;
  }
  const out: Record<string, unknown> = {};
  copies.set(schema, out);
  for (const [key, value] of Object.entries(schema)) {
    if (DATA.has(key)) out[key] = value;
    else if (typeof value === "number" && key in COUNTS) out[key] = Math.min(value, COUNTS[key] as number);
    else if (key === "pattern" && typeof value === "string") {
      if (patternLengthBound(value) <= MAX_STRING) out[key] = value;
    }
    // Tried against member names with the pattern's own backtracking, so a hostile one could hang: left out.
    else if (key === "patternProperties") continue;
    else if (NAMED_SCHEMAS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, boundedSchema(s, copies)]));
    // Any other member is read as a schema (the generator reads unknown members holding objects as properties).
    else out[key] = boundedSchema(value, copies);
  }
  return out;
}

/** Thrown when an answer outgrows the budget; the generator's caller answers without the values. */
export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";
}

/** Counts what the generator makes (each value passes here once made) and stops it past the budget. */
export function valueBudget(): (value: unknown) => void {
  let values = 0;
  let chars = 0;
  return (value) => {
    if (++values > MAX_VALUES) throw new BudgetExceeded("too many values");
    if (typeof value === "string" && (chars += value.length) > MAX_CHARS) throw new BudgetExceeded("too many characters");
  };
}
