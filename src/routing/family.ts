/**
 * A model family the caller asks to be routed within: `<prefix>*` (`gpt-4o*`,
 * `claude-sonnet*`), every candidate model whose id starts with the prefix. The
 * trailing `*` is what asks for it: a name without one is a concrete model, served
 * as named unless `x-gw-route` asks for routing (then among every candidate, the
 * named model first among equals). No vendor's id ends with `*`; a model a configuration declares with that
 * exact name stays that model (the caller of `familyOf` checks, it knows the
 * configurations).
 */

/** What marks a family: the last character of the name. */
export const FAMILY_MARK = "*";

/** The family's prefix when the name asks for one (`gpt-4o*` -> `gpt-4o`), else null. */
export function familyOf(model: string): string | null {
  if (!model.endsWith(FAMILY_MARK)) return null;
  const prefix = model.slice(0, -FAMILY_MARK.length);
  // `*` alone is every model (that is `gateway/auto`), and a `*` inside is not a family this rule can read.
  if (prefix === "" || prefix.includes(FAMILY_MARK)) return null;
  return prefix;
}

/** Whether a model id belongs to the family of `prefix`. */
export function inFamily(prefix: string): (id: string) => boolean {
  return (id) => id.startsWith(prefix);
}
