/**
 * Generates src/pipeline/scan/gitleaks-rules.ts from gitleaks' rule set
 * (scanner/gitleaks/gitleaks.toml, MIT, gitleaks/gitleaks; license beside it).
 *
 *   bun scanner/generate-secret-rules.ts
 *
 * Taken: the rules whose pattern opens with a literal prefix that is one of the
 * rule's keywords (`glpat-`, `hvs.`, `pypi-AgE`...). The keyword is then where a match
 * can start, so the engine tries the pattern only there (where a word begins, for a
 * prefix that opens with a letter or digit: gitleaks would also match inside a word). Go's syntax is translated
 * (`\z` to `$`, POSIX classes to ranges); a pattern JavaScript cannot read as Go
 * means it is left out, and listed when the script runs. The rules gitleaks writes as
 * `name = value` assignments with a case-insensitive vendor name open at that name
 * where a word begins; inside a longer name (`MY_MAILCHIMP_KEY`) the generic assignment
 * detector (assignments.ts) catches what they would (test/pipeline/scan/gitleaks-rules.test.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GeneratedRule } from "../src/pipeline/scan/gitleaks-rule.ts";

interface GitleaksRule {
  id: string;
  regex?: string;
  entropy?: number;
  /** Which capturing group holds the secret, when not the first (`sonar[_.-]?(login|token)` opens its rule). */
  secretGroup?: number;
  keywords?: string[];
}

const POSIX: Record<string, string> = {
  alnum: "A-Za-z0-9",
  alpha: "A-Za-z",
  digit: "0-9",
  upper: "A-Z",
  lower: "a-z",
  xdigit: "0-9A-Fa-f",
};

/**
 * Go RE2 to JavaScript, for the constructs these rules use: a leading `(?i)` becomes
 * the case-folding flag; a `(?i)` further in, which in Go folds case to the end of its
 * group, becomes a `(?i:...)` group to that end (JavaScript reads `(?i:...)` and
 * `(?-i:...)` groups as Go does); named groups become plain ones; `(?s:.)` any
 * character. Null when something is left that JavaScript reads differently.
 */
/** The most characters of one line an unbounded `.*` reads. */
const LINE = 256;

export function translateGoRegex(go: string): { source: string; ignoreCase: boolean } | null {
  const ignoreCase = go.startsWith("(?i)");
  let js = (ignoreCase ? go.slice(4) : go)
    .replace(/\\z/g, "$")
    .replace(/\[:(\w+):\]/g, (m, name: string) => POSIX[name] ?? m)
    .replace(/\(\?P<\w+>/g, "(")
    .replace(/\(\?s:\.\)/g, "[\\s\\S]")
    // Go's `.` stops at a newline; a run of it is held to 256 characters of one line, so
    // that a rule reaching along a command (`curl ... -H "Authorization: ..."`) stays linear.
    .replace(/(?<!\\)\.\*(\?)?/g, (_, lazy?: string) => `[^\\n]{0,${LINE}}${lazy ?? ""}`);
  js = scopedCaseFolding(js);
  if (/\(\?[a-z]*-?[a-z]*\)/.test(js) || /\[:\w+:\]|\\[AQEpP]/.test(js)) return null;
  // Unbounded repetition after a group or of any character could make the scan superlinear on hostile text.
  if (/\.[*+]|\)[*+]/.test(js.replace(/\[(?:\\.|[^\]\\])*\]/g, "[]"))) return null;
  js = js.replace(/\\x60/g, "`");
  try {
    new RegExp(js, ignoreCase ? "i" : "");
  } catch {
    return null;
  }
  return { source: js, ignoreCase };
}

/**
 * Each `(?i)` after the start made a `(?i:...)` group reaching to the end of the
 * alternative it stands in; Go keeps the flag on through the group's later
 * alternatives, so each of those opens with `(?i)` in turn.
 */
export function scopedCaseFolding(source: string): string {
  let src = source;
  for (let at = src.indexOf("(?i)"); at > 0; at = src.indexOf("(?i)")) {
    let depth = 0;
    let inClass = false;
    let end = src.length;
    for (let i = at + 4; i < src.length; i++) {
      const c = src[i];
      if (c === "\\") i++;
      else if (inClass) inClass = c !== "]";
      else if (c === "[") inClass = true;
      else if (c === "(") depth++;
      else if (c === ")" && depth-- === 0) {
        end = i;
        break;
      } else if (c === "|" && depth === 0) {
        end = i;
        break;
      }
    }
    const rest = src[end] === "|" && !src.startsWith("(?i)", end + 1) ? `|(?i)${src.slice(end + 1)}` : src.slice(end);
    src = `${src.slice(0, at)}(?i:${src.slice(at + 4, end)})${rest}`;
  }
  return src;
}

/**
 * The pattern without `(?i:...)` and `(?-i:...)` groups, for the engine's shared
 * expressions: one such group there makes JavaScriptCore give up compiling the whole
 * expression to machine code, and its interpreter is slower by orders of magnitude and
 * gives up (no match) on long runs. `(?i:...)` in a case-sensitive pattern is folded
 * by hand (`a` to `[aA]`, `[a-f]` to `[a-fA-F]`); in a case-folding one it is plain.
 * Null when a `(?-i:...)` would have to keep its case inside a case-folding pattern.
 */
export function withoutCaseGroups(source: string, ignoreCase: boolean): string | null {
  let out = "";
  /** The depth of each open group, and whether it folds case by hand. */
  const folding: boolean[] = [];
  const folds = () => folding.includes(true);
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (source.startsWith("(?i:", i) || source.startsWith("(?-i:", i)) {
      const on = source[i + 2] === "i";
      if (!on && ignoreCase) return null;
      folding.push(on && !ignoreCase);
      out += "(?:";
      i += on ? 3 : 4;
    } else if (c === "(") {
      folding.push(false);
      out += c;
    } else if (c === ")") {
      folding.pop();
      out += c;
    } else if (c === "\\") {
      out += c + (source[i + 1] ?? "");
      i++;
    } else if (c === "[") {
      let end = i + 1;
      while (end < source.length && source[end] !== "]") end += source[end] === "\\" ? 2 : 1;
      const body = source.slice(i + 1, end);
      out += folds() ? `[${body}${otherCase(body)}]` : `[${body}]`;
      i = end;
    } else if (folds() && /[A-Za-z]/.test(c) && !/[{,]/.test(out.at(-1) ?? "")) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    } else out += c;
  }
  return out;
}

/** The letters and letter ranges of a class body in the other case (`a-f` gives `A-F`). */
function otherCase(body: string): string {
  let extra = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\") {
      i++;
      continue;
    }
    const c = body[i] as string;
    const swap = (ch: string) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase());
    if (/[A-Za-z]/.test(c) && body[i + 1] === "-" && /[A-Za-z]/.test(body[i + 2] ?? "")) {
      extra += `${swap(c)}-${swap(body[i + 2] as string)}`;
      i += 2;
    } else if (/[A-Za-z]/.test(c)) extra += swap(c);
  }
  return extra;
}

/** Every capturing group made non-capturing: the engine names the detector that matched by its own group. */
export function nonCapturing(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      out += c + (source[++i] ?? "");
      continue;
    }
    if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(" && source[i + 1] !== "?") {
      out += "(?:";
      continue;
    }
    out += c;
  }
  return out;
}

/** The index of the `)` closing the group that opens at `open`. */
function closing(src: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Splits at the `|`s outside groups and classes. */
function alternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(src.slice(from, i));
      from = i + 1;
    }
  }
  out.push(src.slice(from));
  return out;
}

/**
 * The literals every match opens with, one per way it can open (`(?:sk|rk)_(?:test|live)_`
 * opens with "sk_test_", "sk_live_", "rk_test_" or "rk_live_"; `EAA[MC]` with "EAAM" or
 * "EAAC"): characters up to the first with a regex meaning, escaped `.` and `-`
 * included. Null when some way opens with no literal.
 */
export function openingLiterals(pattern: string): string[] | null {
  const openings = literalsOf(pattern);
  if (!openings || openings.some((o) => o.text === "")) return null;
  const texts = [...new Set(openings.map((o) => o.text))];
  // "sgp_local_" adds nothing where "sgp_" is already a start.
  return texts.filter((t) => !texts.some((u) => u !== t && t.startsWith(u)));
}

/** A literal a source can open with; `whole` when it is all of the source. */
interface Opening {
  text: string;
  whole: boolean;
}

const MAX_OPENINGS = 32;
const OPTIONAL = /^(?:[?*]|\{0,)/;

function literalsOf(src: string): Opening[] | null {
  let heads: Opening[] = [{ text: "", whole: true }];
  const extend = (options: Opening[], repeated: boolean) => {
    heads = heads.flatMap((h) => (h.whole ? options.map((o) => ({ text: h.text + o.text, whole: o.whole && !repeated })) : [h]));
  };
  const stop = () => {
    heads = heads.map((h) => ({ ...h, whole: false }));
  };
  let i = 0;
  while (i < src.length && heads.some((h) => h.whole)) {
    if (heads.length > MAX_OPENINGS) return null;
    const c = src[i] as string;
    if (src.startsWith("\\b", i)) {
      i += 2;
    } else if (src.startsWith("(?:", i)) {
      const end = closing(src, i);
      const after = src.slice(end + 1);
      if (end < 0 || OPTIONAL.test(after)) {
        stop();
        break;
      }
      const options: Opening[] = [];
      for (const alt of alternatives(src.slice(i + 3, end))) {
        const o = literalsOf(alt);
        if (!o) return null;
        options.push(...o);
      }
      extend(options, /^[+{]/.test(after));
      i = end + 1;
    } else if (c === "[") {
      // A small class of plain characters is that many ways to open.
      const end = src.indexOf("]", i);
      const chars = src.slice(i + 1, end);
      if (end < 0 || !/^[A-Za-z0-9_]{1,5}$/.test(chars) || OPTIONAL.test(src.slice(end + 1))) {
        stop();
        break;
      }
      extend(
        [...chars].map((ch) => ({ text: ch, whole: true })),
        /^[+{]/.test(src.slice(end + 1)),
      );
      i = end + 1;
    } else {
      let ch: string | undefined;
      let next = i + 1;
      if (c === "\\" && /[.\-_~]/.test(src[i + 1] ?? "")) {
        ch = src[i + 1];
        next = i + 2;
      } else if (/[A-Za-z0-9_\-~]/.test(c)) ch = c;
      if (ch === undefined || OPTIONAL.test(src.slice(next))) {
        stop();
        break;
      }
      extend([{ text: ch, whole: true }], /^[+{]/.test(src.slice(next)));
      i = next;
    }
  }
  return heads;
}

/** The gitleaks template of a `vendor_name = secret` rule opens with the name's other characters, lazily none. */
const NAME_PREFIX = /^(\(\?i:)?\[\\w\.-\]\{0,50\}\?/;

/**
 * A rule's keyword can gate it (gitleaks tries a rule only on text holding one of
 * its keywords) when the trigger pass can find it: at a word start when it is all
 * word characters (three or more), anywhere by its first other character otherwise.
 */
const gateable = (k: string) => (/^\w+$/.test(k) ? k.length >= 3 : /\W/.test(k)) && /^[\x20-\x7e]+$/.test(k);

/** Rules the project leaves to a detector of its own, and why. */
const REPLACED: Record<string, string> = {
  // Its keywords (key, token, auth, api...) open nearly every code text; password_assignment in secret-detectors.ts plays its part.
  "generic-api-key": "password_assignment",
  // The same test as curl_basic_auth in secret-detectors.ts, which came first.
  "curl-auth-user": "curl_basic_auth",
};

/** The characters a Vault service token's body is made of, after its `s.` (gitleaks: `(?i:[a-z0-9]{24})`). */
const VAULT_TOKEN_CHARS = [..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"];

/**
 * Opening literals given by hand, for rules whose own opening is too short to be a start
 * and would otherwise be gated by a keyword that everyday text holds. Each must narrow what
 * the pattern opens with (checked below), never widen it.
 */
const OPENINGS: Record<string, string[]> = {
  // A legacy Vault service token is `s.` and 24 letters or digits. As a keyword, `s.` stands at
  // every plural that ends a sentence ("the results."), and opened a search of the whole text in
  // 185 of 256 1 KB prose texts (and 608 of 2,153 benign rows), for a token that is rare. It
  // begins a word with `s.` and a letter or digit: those three characters are a word literal,
  // tried once where they stand, so "results." and "it's." open nothing.
  "vault-service-token": ["hvs.", ...VAULT_TOKEN_CHARS.map((c) => `s.${c}`)],
};

/** The hand-given openings of a rule, when each begins with one of the pattern's own and each of those is kept. */
function givenOpenings(id: string, pattern: string): string[] | null {
  const given = OPENINGS[id];
  if (!given) return null;
  const own = openingLiterals(pattern) ?? [];
  if (!given.every((g) => own.some((o) => g.startsWith(o))) || !own.every((o) => given.some((g) => g.startsWith(o))))
    throw new Error(`${id}: the given openings ${given.join(", ")} do not narrow the pattern's own (${own.join(", ")})`);
  return given;
}

export function generate(toml: string): { rules: GeneratedRule[]; skipped: string[] } {
  const config = Bun.TOML.parse(toml) as { rules: GitleaksRule[] };
  const rules: GeneratedRule[] = [];
  const skipped: string[] = [];
  for (const r of config.rules) {
    const translated = r.regex && !REPLACED[r.id] ? translateGoRegex(r.regex) : null;
    if (!translated) {
      skipped.push(r.id);
      continue;
    }
    // Dropping the lazy name prefix changes no verdict: a match opens at the vendor's name instead.
    let capturing = translated.source;
    while (NAME_PREFIX.test(capturing)) capturing = capturing.replace(NAME_PREFIX, "$1");
    // Gated rules keep their own expressions, which may hold case groups; the others join the engine's shared ones.
    const plain = withoutCaseGroups(capturing, translated.ignoreCase);
    const pattern = nonCapturing(plain ?? capturing);
    const prefixes = givenOpenings(r.id, pattern) ?? openingLiterals(pattern);
    const keywords = (r.keywords ?? []).map((k) => k.toLowerCase());
    const entropy = r.entropy ?? 0;
    const base = {
      id: r.id,
      ignoreCase: translated.ignoreCase,
      entropy,
      secret: capturing,
      ...(r.secretGroup ? { secretGroup: r.secretGroup } : {}),
    };
    // Tried where it opens: each opening literal is one of gitleaks' keywords (or begins with one), a prefilter as gitleaks uses them.
    const wordStart = prefixes?.every((p) => /^\w/.test(p)) ?? false;
    if (
      plain !== null &&
      prefixes &&
      prefixes.every((p) => p.length >= 3 && keywords.some((k) => p.toLowerCase().startsWith(k))) &&
      (wordStart || prefixes.every((p) => /^\W/.test(p)))
    ) {
      // A literal that opens with a letter or digit is found only where a word begins, so the pattern says so too.
      const anchored = !wordStart || pattern.startsWith("\\b") ? pattern : `\\b${pattern}`;
      rules.push({ ...base, pattern: anchored, prefixes, atWord: wordStart, keywords: [] });
      continue;
    }
    // Otherwise searched through the whole text, only when one of its keywords stands in it.
    if (keywords.length && keywords.every(gateable)) {
      rules.push({ ...base, pattern, prefixes: [], atWord: false, keywords });
      continue;
    }
    skipped.push(r.id);
  }
  return { rules, skipped };
}

if (import.meta.main) {
  const { rules, skipped } = generate(readFileSync(join(import.meta.dir, "gitleaks/gitleaks.toml"), "utf8"));
  const out = `// Generated by scanner/generate-secret-rules.ts from gitleaks' rule set
// (scanner/gitleaks/gitleaks.toml; gitleaks/gitleaks, MIT License, Copyright (c) 2019
// Zachary Rice; the license is scanner/gitleaks/LICENSE). Do not edit: run the script.
import type { GeneratedRule } from "./gitleaks-rule.ts";

export const GITLEAKS_RULES: readonly GeneratedRule[] = ${JSON.stringify(rules, null, 2)};
`;
  writeFileSync(join(import.meta.dir, "../src/pipeline/scan/gitleaks-rules.ts"), out);
  const gated = rules.filter((r) => r.keywords.length).length;
  console.log(
    `${rules.length} rules taken (${rules.length - gated} tried where their literal opens, ${gated} gated by keywords); left out: ${skipped.join(", ")}`,
  );
}
