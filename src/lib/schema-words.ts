/**
 * What a TypeBox schema accepts, in words a client can act on ("a number from 0 to 2",
 * "one of user, assistant"), for the validators' 400s. A schema's own `errorMessage`
 * wins where a schema needs better wording than its structure gives.
 */
import { Kind, type TSchema } from "@sinclair/typebox";

type S = TSchema & Record<string, any>;

function range(min: unknown, max: unknown, exclusiveMin: unknown, exclusiveMax: unknown): string {
  const lo = typeof min === "number" ? min : undefined;
  const hi = typeof max === "number" ? max : undefined;
  if (lo !== undefined && hi !== undefined) return ` from ${lo} to ${hi}`;
  const parts: string[] = [];
  if (lo !== undefined) parts.push(`at least ${lo}`);
  if (typeof exclusiveMin === "number") parts.push(`greater than ${exclusiveMin}`);
  if (hi !== undefined) parts.push(`at most ${hi}`);
  if (typeof exclusiveMax === "number") parts.push(`less than ${exclusiveMax}`);
  return parts.length ? ` of ${parts.join(" and ")}` : "";
}

function count(min: unknown, max: unknown, unit: string): string {
  const lo = typeof min === "number" && min > 0 ? min : undefined;
  const hi = typeof max === "number" ? max : undefined;
  if (lo !== undefined && hi !== undefined) return lo === hi ? ` of exactly ${lo} ${unit}` : ` of ${lo} to ${hi} ${unit}`;
  if (lo === 1) return ` of at least 1 ${unit.replace(/s$/, "")}`;
  if (lo !== undefined) return ` of at least ${lo} ${unit}`;
  if (hi !== undefined) return ` of at most ${hi} ${unit}`;
  return "";
}

/** A noun phrase for what the schema accepts: "a whole number from 1 to 128". */
export function acceptedValues(schema: TSchema): string {
  const s = schema as S;
  switch (s[Kind]) {
    case "Number":
      return `a number${range(s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum)}`;
    case "Integer":
      return `a whole number${range(s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum)}`;
    case "String":
      return `a string${count(s.minLength, s.maxLength, "characters")}${s.pattern || s.format ? ` in the expected format${s.format ? ` (${s.format})` : ""}` : ""}`;
    case "Boolean":
      return "true or false";
    case "Null":
      return "null";
    case "Literal":
      return JSON.stringify(s.const);
    case "Union": {
      const members = (s.anyOf as S[]).filter((m) => m[Kind] !== "Null");
      if (members.length > 0 && members.every((m) => m[Kind] === "Literal"))
        return `one of ${members.map((m) => String(m.const)).join(", ")}`;
      return members.map(acceptedValues).join(" or ");
    }
    case "Array": {
      const items = s.items as S | undefined;
      const of = items && items[Kind] !== "Unknown" && items[Kind] !== "Any" ? ` (each ${acceptedValues(items)})` : "";
      return `an array${count(s.minItems, s.maxItems, "items")}${of}`;
    }
    case "Object":
    case "Record":
      return "an object";
    default:
      return "a valid value";
  }
}

/** The predicate of a validation error: "must be a number from 0 to 2". */
export function mustBe(schema: TSchema): string {
  const own = (schema as S).errorMessage;
  return typeof own === "string" ? own : `must be ${acceptedValues(schema)}`;
}
