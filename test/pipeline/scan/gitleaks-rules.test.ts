/**
 * gitleaks' `vendor name = secret` rules (gitleaks-rules.ts) open at the vendor's name
 * where a word begins; gitleaks also takes the name inside a longer one
 * (`MY_MAILCHIMP_KEY`, `app.dropbox.secret`, `myAsanaToken`). There the generic
 * assignment must catch what the vendor rule would: for every such rule, a value of the
 * rule's own shape under such names is a credential (identifiers excepted).
 */
import { expect, test } from "bun:test";
import { scanText } from "../../../src/pipeline/scan/engine.ts";
import { GITLEAKS_RULES } from "../../../src/pipeline/scan/gitleaks-rules.ts";
import { IDENTIFIER_RULE } from "../../../src/pipeline/scan/secret-detectors.ts";

/** gitleaks' name template after the vendor's name: `(?:vendor|other)(?:[ \t\w.-]{0,20})`. */
const NAMED = /^\(\?:([a-z0-9_|-]+)\)\(\?:\[ \\t\\w\.-\]\{0,20\}\)/;
/** The secret's group, before gitleaks' closing `(?:[\x60'"\s;]|\\[nr]|$)`. */
const CAPTURE = /\(([^?][^()]*)\)\(\?:\[`'"\\s;\]/;

/** A fixed sequence, so the values are the same on every run and no one's token. */
let state = 17;
const next = () => {
  state = (state * 48271) % 2147483647;
  return state / 2147483647;
};

/** The characters of a class body (`a-z0-9_-` gives a to z, 0 to 9, `_` and `-`). */
function classChars(body: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < body.length; i++) {
    let c = body[i] as string;
    if (c === "\\") c = body[++i] as string;
    if (body[i + 1] === "-" && i + 2 < body.length) {
      for (let k = c.charCodeAt(0); k <= body.charCodeAt(i + 2); k++) out.push(String.fromCharCode(k));
      i += 2;
    } else out.push(c);
  }
  // Letters and digits only: punctuation at random would make some values read as code.
  return out.filter((ch) => /[A-Za-z0-9]/.test(ch));
}

/** A value of the capture's shape (literals and classes with a count), or null for shapes this does not draw. */
function sample(capture: string): string | null {
  let out = "";
  for (let i = 0; i < capture.length; ) {
    const c = capture[i] as string;
    if (c === "[") {
      const end = capture.indexOf("]", i + 1);
      const count = /^\{(\d+)(?:,\d*)?\}/.exec(capture.slice(end + 1));
      const chars = classChars(capture.slice(i + 1, end));
      if (!count || !chars.length) return null;
      for (let k = 0; k < Number(count[1]); k++) out += chars[Math.floor(next() * chars.length)];
      i = end + 1 + count[0].length;
    } else if (/[A-Za-z0-9_-]/.test(c)) {
      out += c;
      i++;
    } else if (c === "\\" && /[.\-_]/.test(capture[i + 1] ?? "")) {
      out += capture[i + 1];
      i += 2;
    } else return null;
  }
  return out;
}

const cases = GITLEAKS_RULES.filter((r) => !IDENTIFIER_RULE.test(r.id)).flatMap((rule) => {
  const vendor = NAMED.exec(rule.secret)?.[1]?.split("|")[0];
  const capture = CAPTURE.exec(rule.secret)?.[1];
  const value = vendor && capture ? sample(capture) : null;
  if (!vendor || !capture || !value || !new RegExp(`^${capture}$`, rule.ignoreCase ? "i" : "").test(value)) return [];
  const upper = vendor.toUpperCase().replace(/-/g, "_");
  const title = vendor[0]?.toUpperCase() + vendor.slice(1);
  return [
    `MY_${upper}_API_KEY = "${value}"`,
    `app.${vendor}.secret: ${value}`,
    `export PROD_${upper}_TOKEN=${value}`,
    `my${title}Token := "${value}"`,
  ].map((line) => [rule.id, line] as const);
});

test("most of gitleaks' name rules are drawn", () => {
  expect(new Set(cases.map(([id]) => id)).size).toBeGreaterThanOrEqual(60);
});

test.each(cases)("%s: %s", (_, line) => {
  expect(scanText(line, { injection: false }).findings.filter((f) => f.category === "secret")).not.toEqual([]);
});
