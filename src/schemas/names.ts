/**
 * Names that end up in HTTP headers and logs (model ids, provider names): printable
 * ASCII only, so no control character, line break, bidirectional override, zero-width
 * character or emoji can reach a header after a provider was called and billed.
 */
import { Type } from "@sinclair/typebox";
import { PLAIN_TEXT_PATTERN, PLAIN_TEXT_RULE } from "../lib/plain-text.ts";

/** A model id as callers send it (`gpt-4o`, `lab/llama3:8b`, `accounts/fireworks/models/x`). */
export const ModelName = Type.String({
  minLength: 1,
  maxLength: 300,
  pattern: "^[\\x21-\\x7e]+$",
  errorMessage: "must be 1 to 300 printable ASCII characters (no spaces, control or non-ASCII characters)",
});

/** A provider configuration's name, used as the prefix of `name/model`: no slash either. */
export const ProviderName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: "^[\\x21-\\x2e\\x30-\\x7e]+$",
  errorMessage: "must be 1 to 100 printable ASCII characters without spaces or slashes",
});

/**
 * A name a person chooses and a terminal or the dashboard shows (a service account, a
 * key, a tool pattern, a deployment): any language, but no control character, line
 * break or bidirectional override (src/lib/plain-text.ts, the rule the command line
 * applies to its arguments).
 */
export const PlainName = (maxLength: number, minLength = 1) =>
  Type.String({
    minLength,
    maxLength,
    pattern: PLAIN_TEXT_PATTERN,
    errorMessage: `must be ${minLength} to ${maxLength} characters of ${PLAIN_TEXT_RULE}`,
  });
