/**
 * Values for a JSON schema, as a careful model would fill it: json-schema-faker makes
 * an instance that validates (types, required members, enums, formats, nested objects
 * and arrays, anyOf, $ref/$defs and `definitions` as the SDKs' zod converters write
 * them), seeded so the same request gets the same values, bounds that clients moved into
 * descriptions included; free-text strings and open numbers are then made plausible from
 * the member's name and the words of the request ("city" takes a place the message names,
 * "query" the message itself, "age" a grown-up's age).
 */
import { generateSync, type JsonSchema } from "json-schema-faker";
import { withDescribedConstraints } from "./described-constraints.ts";

type Node = Record<string, unknown>;

const PLACES = ["Paris", "Lisbon", "Tokyo", "Toronto", "Nairobi", "Oslo"];
const PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson"];
const COUNTRIES = ["France", "Portugal", "Japan", "Canada", "Kenya", "Norway"];
const WORDS = ["alpha", "harbor", "meadow", "signal", "copper", "lantern", "orchard", "summit"];

/** Words that open a sentence with a capital without being a name. */
const OPENERS = new Set(
  "I A An The What What's Whats How Where When Who Why Which Is Are Do Does Can Could Would Please Tell Show Find Get Give Search Look Check Send Make Then And Also".split(
    " ",
  ),
);

/**
 * Capitalized words other than sentence openers: the names and places the text mentions.
 * A word capitalized only because it starts a sentence ("Weather in Paris?") counts only
 * when no other word is capitalized.
 */
function properNouns(text: string): string[] {
  const all: string[] = [];
  const inside: string[] = [];
  for (const m of text.matchAll(/[\p{L}][\p{L}'-]*/gu)) {
    const w = m[0];
    if (!/^\p{Lu}/u.test(w) || OPENERS.has(w)) continue;
    all.push(w);
    const before = text.slice(0, m.index).trimEnd();
    if (before !== "" && !/[.!?:]$/.test(before)) inside.push(w);
  }
  return inside.length > 0 ? inside : all;
}

/** The words of the text that carry meaning. */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 3);
}

const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length] as T;

/** A value fitting the member's name, from the request's text where it has one. */
function plausible(name: string, text: string, n: number): string {
  const key = name.toLowerCase();
  const nouns = properNouns(text);
  const words = contentWords(text);
  if (/city|town|location|place|destination|origin|region/.test(key)) return pick(nouns.length ? nouns : PLACES, n);
  if (/country|nation/.test(key)) return pick(COUNTRIES, n);
  if (/name|author|person|user|owner|contact/.test(key)) return nouns.length ? pick(nouns, n) : pick(PEOPLE, n);
  if (/e-?mail/.test(key)) return `${pick(["ada", "grace", "alan"], n)}@example.com`;
  if (/url|link|website|href/.test(key)) return `https://example.com/${pick(words.length ? words : WORDS, n)}`;
  if (/^id$|_id$|Id$/.test(name)) return `${key.replace(/_?id$/, "") || "item"}_${1000 + (n % 9000)}`;
  if (/date|day/.test(key)) return `2026-${String(1 + (n % 12)).padStart(2, "0")}-${String(1 + (n % 28)).padStart(2, "0")}`;
  if (/unit/.test(key)) return pick(["celsius", "metric", "kg"], n);
  if (/query|question|search|prompt|input|request|text|topic|keyword|term/.test(key)) return text.trim() || pick(WORDS, n);
  if (/summary|description|answer|content|message|reason|explanation|comment|note|body|title|headline/.test(key))
    return text.trim()
      ? `About "${text.trim().slice(0, 80)}": ${pick(WORDS, n)} and ${pick(WORDS, n + 3)}.`
      : `A short ${pick(WORDS, n)} note.`;
  return words.length ? pick(words, n) : pick(WORDS, n);
}

/** A number schema that leaves the value open: no bounds, step, enum or constant. */
const isOpenNumber = (schema: Node) =>
  ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "enum", "const"].every((k) => schema[k] === undefined);

/**
 * A plausible number in place of the generator's any-size one, for a member whose schema
 * leaves it open (an `age` of 1193821199138817 validates, but no careful model writes it).
 * Integers stay integers.
 */
function plausibleNumber(name: string, value: number): number {
  const key = name.toLowerCase();
  const k = Math.abs(Math.trunc(value));
  const whole = Number.isInteger(value);
  if (/age/.test(key)) return 18 + (k % 63);
  if (/year/.test(key)) return 1990 + (k % 37);
  if (/rating|stars/.test(key)) return 1 + (k % 5);
  if (/percent|pct|score|probability|confidence/.test(key)) return whole ? k % 101 : (k % 101) / 100;
  if (/price|amount|cost|total|balance|salary|fee/.test(key)) return whole ? 1 + (k % 1000) : (100 + (k % 99900)) / 100;
  return whole ? 1 + (k % 100) : (k % 10000) / 100;
}

/** The string cut or grown to the schema's length bounds. */
function fitted(value: string, schema: Node): string {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  let s = Array.from(value).slice(0, max).join("");
  while (Array.from(s).length < min) s += " and more";
  return Array.from(s)
    .slice(0, Math.max(min, Math.min(max, Array.from(s).length)))
    .join("");
}

/** A free-text string schema: one whose string any text satisfies, bounds aside. */
const isFreeText = (schema: Node) =>
  schema.enum === undefined &&
  schema.const === undefined &&
  schema.format === undefined &&
  schema.pattern === undefined &&
  schema.contentEncoding === undefined &&
  schema.contentMediaType === undefined;

/** The member name a value sits under: the last path segment, or its array's name for an item. */
function memberName(path: string): string {
  const segments = path.split("/").filter((s) => s !== "");
  for (let i = segments.length - 1; i >= 0; i--) if (!/^\d+$/.test(segments[i] as string)) return segments[i] as string;
  return "";
}

/**
 * A value that validates against `schema`, the same for the same seed; `text` is what the
 * request says (the strings are drawn from it). A schema the generator cannot fill gives
 * an empty object.
 */
export function valueFor(schema: unknown, seed: number, text: string): unknown {
  if (typeof schema !== "object" || schema === null) return {};
  let n = seed;
  try {
    return generateSync(withDescribedConstraints(schema) as JsonSchema, {
      seed,
      // Optional members are filled too: a careful answer gives what the schema has room for.
      alwaysFakeOptionals: true,
      maxDefaultItems: 3,
      refDepthMax: 3,
      failOnInvalidTypes: false,
      defaultInvalidTypeProduct: null,
      outputTransform: (value, s, path) => {
        if (typeof s !== "object" || s === null) return value;
        if (typeof value === "number" && Number.isFinite(value) && isOpenNumber(s as Node)) return plausibleNumber(memberName(path), value);
        if (typeof value !== "string" || !isFreeText(s as Node)) return value;
        return fitted(plausible(memberName(path), text, n++), s as Node);
      },
    });
  } catch {
    return {};
  }
}
