/** The one check for caller-chosen text a terminal or page shows: no control characters, no bidirectional overrides. */

/**
 * C0 and C1 controls (ESC, line breaks, NUL: `\p{Cc}` spelled as ranges, so the same
 * source serves a JSON Schema `pattern`, which has no `u` flag) and the bidirectional
 * overrides and isolates, which reorder what a terminal or page shows.
 */
const UNPRINTABLE_CLASS = "\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069";

/** Finds the first character a name must not hold. */
export const UNPRINTABLE = new RegExp(`[${UNPRINTABLE_CLASS}]`);

/** The same rule as a schema `pattern`, for names bounded in TypeBox. */
export const PLAIN_TEXT_PATTERN = `^[^${UNPRINTABLE_CLASS}]*$`;

/** Longer than any name, address or path a person types; past it the text is a mistake (or worse), not a value. */
export const MAX_PLAIN_TEXT = 4096;

/** What the refusal says the rule is (the schemas' `errorMessage` and the services' checks). */
export const PLAIN_TEXT_RULE = "plain text (no control characters, line breaks or bidirectional overrides)";

export const isPlainText = (text: string): boolean => !UNPRINTABLE.test(text);

const ESCAPED = new RegExp(`[${UNPRINTABLE_CLASS}]`, "g");

/** Every control character and override written as `\uXXXX`: caller-chosen text a message names (a field's key) without replaying it. */
export const escapedControls = (text: string): string =>
  text.replace(ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Text as a message may quote it: cut short, in quotes, and every control character and override escaped. */
export function quotedSafely(text: string, max = 40): string {
  return escapedControls(JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text));
}
