/**
 * Constraints a client wrote into a schema's descriptions, read back as schema keywords.
 * Messages-format structured output rejects keywords such as `minimum` or `maxItems`,
 * so the SDKs move them into the member's description (the AI SDK's
 * `@ai-sdk/anthropic` writes "minimum: 18; maximum: 99.", the Anthropic SDKs
 * "{minimum: 18}"); a careful model still honours them, and so does the simulator.
 */

type Node = Record<string, unknown>;

/** The keywords read back: numbers (and `uniqueItems`) only, whose values cannot be misread. */
const KEYWORDS = [
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minimum",
  "maximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
] as const;

/** `minItems` may be written as is or spaced ("min items"); a keyword inside a longer one ("exclusiveMinimum") does not count. */
const PATTERNS = KEYWORDS.map((key) => {
  const spaced = key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return [key, new RegExp(`(?<![a-z])(?<!exclusive )(?:${key}|${spaced})["']?\\s*[:=]\\s*(-?\\d+(?:\\.\\d+)?|true|false)`, "i")] as const;
});

function fromDescription(description: string): Node {
  const found: Node = {};
  for (const [key, pattern] of PATTERNS) {
    const m = pattern.exec(description);
    if (!m) continue;
    const raw = m[1] as string;
    found[key] = raw === "true" ? true : raw === "false" ? false : Number(raw);
  }
  return found;
}

/** The schema with described constraints added where the node does not state them itself; the input is not changed. */
export function withDescribedConstraints(schema: unknown, depth = 0): unknown {
  if (depth > 64) return schema;
  if (Array.isArray(schema)) return schema.map((s) => withDescribedConstraints(s, depth + 1));
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Node = {};
  for (const [k, v] of Object.entries(schema)) out[k] = typeof v === "object" && v !== null ? withDescribedConstraints(v, depth + 1) : v;
  if (typeof out.description === "string") {
    for (const [k, v] of Object.entries(fromDescription(out.description))) if (!(k in out)) out[k] = v;
  }
  return out;
}
