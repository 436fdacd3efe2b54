/**
 * A multiple assignment read as its single assignments: Go's `user, pass := "svc", "…"`, Python's, Ruby's and Lua's
 * `user, password = "svc", "…"`, Perl's `my ($user, $pass) = ("svc", "…");`. Each name is paired with the value in its
 * place and the pair judged as assignments.ts judges `name = "value"`: a password's name, a token's randomness; a
 * placeholder or a name alone stays allowed. The match opens at the sign, its names read behind it.
 */
import { ASSIGNMENT_DETECTOR } from "./assignments.ts";
import type { Detector } from "./detector.ts";

const NAME = "\\$?[A-Za-z_][\\w.]{0,40}";
/** Two to four names, parenthesized or not, then the sign's blanks: read behind the sign. */
const NAMES = `(?<![\\w.$])${NAME}(?:[ \\t]{0,3},[ \\t]{0,3}${NAME}){1,3}[ \\t]{0,3}\\)?[ \\t]{0,3}`;
const LITERAL = `(?:"[^"\\n]{0,128}"|'[^'\\n]{0,128}')`;

/** One assignment, as the generic assignment reads it, from its start. */
const SINGLE = new RegExp(`^(?:${ASSIGNMENT_DETECTOR.pattern})`, "i");

/** Whether one of the pairs of `names` and `values` in order is a credential's assignment. */
function pairHolds(names: string[], values: string[]): boolean {
  if (names.length !== values.length) return false;
  return names.some((name, i) => {
    const single = `${name.replace(/^\$/, "")} = ${values[i]}`;
    const m = SINGLE.exec(single);
    return m !== null && (ASSIGNMENT_DETECTOR.validate?.(m[0], single, 0, "") ?? false);
  });
}

export const MULTIPLE_ASSIGNMENT_DETECTOR: Detector = {
  kind: "password_assignment",
  category: "secret",
  pattern: `(?<=${NAMES}):?=[ \\t]{0,3}\\(?[ \\t]{0,3}${LITERAL}(?:[ \\t]{0,3},[ \\t]{0,3}${LITERAL}){1,3}`,
  validate: (m, text, index) => {
    const before = text.slice(Math.max(0, index - 200), index);
    const names = new RegExp(`(${NAMES})$`).exec(before)?.[1] ?? "";
    const list = names.replace(/[ \t)]+$/, "").split(/[ \t]*,[ \t]*/);
    const values = [...m.matchAll(/"[^"\n]*"|'[^'\n]*'/g)].map((v) => v[0]);
    return pairHolds(list, values);
  },
  start: { at: "literal", literals: [':= "', ":= '", '= "', "= '", '="', "='", '= ("', "= ('", ':="', ":='"] },
};
