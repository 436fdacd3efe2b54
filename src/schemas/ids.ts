/**
 * Ids the caller chooses (tool-call ids, tool-use ids, Responses item and call ids) are
 * text the model reads and the scanner reads: bounded here, after the schema, so an
 * over-long one is a 400 naming the exact field (inside a union of string or blocks,
 * the schema's own error could only name the union).
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { badRequest } from "../lib/errors.ts";
import type { Validator } from "../lib/validator.ts";

/** Generous: providers' own ids are under 100 characters; frameworks that pack state into ids stay well under this. */
export const MAX_ID_LENGTH = 512;

/**
 * Walks `segs` from `depth` down `value`; `stack` holds the keys and indexes taken so far,
 * joined into the field's path only for the error (every call walks every message, and
 * almost none has an id too long).
 */
function check(value: unknown, segs: readonly string[], depth: number, stack: (string | number)[], prefix: string): void {
  if (depth === segs.length) {
    if (typeof value === "string" && value.length > MAX_ID_LENGTH) {
      const path = (prefix ? [prefix, ...stack] : stack).join(".");
      throw badRequest(`${path} must be at most ${MAX_ID_LENGTH} characters (it has ${value.length})`, { param: path });
    }
    return;
  }
  if (!value || typeof value !== "object") return;
  const seg = segs[depth] as string;
  if (seg === "*") {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) {
      stack.push(i);
      check(value[i], segs, depth + 1, stack, prefix);
      stack.pop();
    }
    return;
  }
  if (Array.isArray(value)) return;
  stack.push(seg);
  check((value as Record<string, unknown>)[seg], segs, depth + 1, stack, prefix);
  stack.pop();
}

/** `validator`, then every id at `patterns` (`messages.*.tool_call_id`; `*` is any array index) held to MAX_ID_LENGTH. */
export function withBoundedIds<S extends TSchema>(validator: Validator<S>, patterns: readonly string[]): Validator<S> {
  const split = patterns.map((p) => p.split("."));
  return {
    parse(value: unknown, prefix = ""): Static<S> {
      const parsed = validator.parse(value, prefix);
      for (const segs of split) check(parsed, segs, 0, [], prefix);
      return parsed;
    },
  };
}
