/**
 * The literals a `\b` pattern must open with, read from its source: `\bsk-ant-...`
 * opens with "sk-ant-", `\b(?:ignore|disregard) ...` with "ignore " or "disregard "
 * (an alternative that is all literal goes on with what follows the group, so that
 * "shows" is not taken for a start of `(?:show|print) `). Null when the opening is
 * not literal (a character class, an optional group), and the detector then declares
 * its start itself.
 */

const META = new Set([..."\\[](){}|?*+.^$"]);
const QUANTIFIER = new Set([..."?*+{"]);
/** Escapes that stand for their character; any other escape (`\d`, `\s`, `\u`) ends a literal. */
const ESCAPED_LITERAL = new Set([..."|/-.[](){}?*+^$"]);

/** The literal characters from `i`, without the last one when a quantifier makes it optional. */
function literalRun(src: string, i: number): string {
  let out = "";
  let k = i;
  while (k < src.length) {
    const ch = src[k] as string;
    if (ch === "\\" && ESCAPED_LITERAL.has(src[k + 1] ?? "")) {
      out += src[k + 1];
      k += 2;
    } else if (!META.has(ch)) {
      out += ch;
      k++;
    } else break;
  }
  return QUANTIFIER.has(src[k] ?? "") ? out.slice(0, -1) : out;
}

/** The top-level alternatives of the group opening at `open` (`(?:`) and where it closes, or null if the group is optional. */
function groupAlternatives(src: string, open: number): { alternatives: string[]; close: number } | null {
  const alternatives: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = open + 3;
  for (let k = open; k < src.length; k++) {
    const ch = src[k];
    if (ch === "\\") {
      k++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") inClass = true;
    else if (ch === "(") depth++;
    else if (ch === ")") {
      depth--;
      if (depth === 0) {
        alternatives.push(src.slice(from, k));
        return QUANTIFIER.has(src[k + 1] ?? "") ? null : { alternatives, close: k };
      }
    } else if (ch === "|" && depth === 1) {
      alternatives.push(src.slice(from, k));
      from = k + 1;
    }
  }
  return null;
}

export function leadingLiterals(pattern: string): string[] | null {
  if (!pattern.startsWith("\\b")) return null;
  const body = pattern.slice(2);
  let literals: string[];
  if (body.startsWith("(?:")) {
    const group = groupAlternatives(body, 0);
    if (!group) return null;
    const after = literalRun(body, group.close + 1);
    literals = group.alternatives.map((a) => {
      const run = literalRun(a, 0);
      // Only an alternative read to its end (no escape, class or quantifier in it) is followed by `after`.
      return run === a ? a + after : run;
    });
  } else literals = [literalRun(body, 0)];
  return literals.every((l) => l.length >= 2) ? literals : null;
}
