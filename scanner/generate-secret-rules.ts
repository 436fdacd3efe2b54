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
 * `name = value` assignments with a case-insensitive vendor name are left to the
 * generic assignment detector (secret-detectors.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GeneratedRule } from "../src/pipeline/scan/gitleaks-rule.ts";

interface GitleaksRule {
  id: string;
  regex?: string;
  entropy?: number;
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
 * the case-folding flag, and `(?-i:...)` groups JavaScript reads alike. Null when
 * something is left that JavaScript reads differently (a flag switched mid-pattern).
 */
export function translateGoRegex(go: string): { source: string; ignoreCase: boolean } | null {
  const ignoreCase = go.startsWith("(?i)");
  let js = (ignoreCase ? go.slice(4) : go).replace(/\\z/g, "$").replace(/\[:(\w+):\]/g, (m, name: string) => POSIX[name] ?? m);
  if (/\(\?[a-z]*-?[a-z]*\)/.test(js) || /\[:\w+:\]|\\[AQEpP]/.test(js)) return null;
  // Unbounded repetition after a group or of any character could make the scan superlinear on hostile text.
  if (/\.[*+]|\)[*+]/.test(js)) return null;
  js = nonCapturing(js.replace(/\\x60/g, "`"));
  try {
    new RegExp(js, ignoreCase ? "i" : "");
  } catch {
    return null;
  }
  return { source: js, ignoreCase };
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
 * The literals every match opens with, one per alternative (`(?:fo1_...|fm2_...)`
 * opens with "fo1_" or "fm2_"): characters up to the first with a regex meaning,
 * escaped `.` and `-` included. Null when an alternative opens with no literal.
 */
export function openingLiterals(pattern: string): string[] | null {
  if (pattern.startsWith("\\b")) return openingLiterals(pattern.slice(2));
  if (pattern.startsWith("(?:")) {
    const end = closing(pattern, 0);
    if (end < 0 || /^[?*]|^\{0,/.test(pattern.slice(end + 1))) return null;
    const inner = alternatives(pattern.slice(3, end));
    const out: string[] = [];
    for (const alt of inner) {
      // A lone alternative may run on past its group ("(?:x)y"): the literal is the group's own.
      const lits = openingLiterals(alt);
      if (!lits) return null;
      out.push(...lits);
    }
    return out;
  }
  let prefix = "";
  let i = 0;
  for (; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\" && /[.\-_~]/.test(pattern[i + 1] ?? "")) prefix += pattern[++i];
    else if (/[A-Za-z0-9_\-~]/.test(c)) prefix += c;
    else break;
  }
  // A last character followed by `?`, `*` or `{0,` is not required.
  if (/^[?*]|^\{0,/.test(pattern.slice(i))) prefix = prefix.slice(0, -1);
  return prefix.length ? [prefix] : null;
}

export function generate(toml: string): { rules: GeneratedRule[]; skipped: string[] } {
  const config = Bun.TOML.parse(toml) as { rules: GitleaksRule[] };
  const rules: GeneratedRule[] = [];
  const skipped: string[] = [];
  for (const r of config.rules) {
    const translated = r.regex ? translateGoRegex(r.regex) : null;
    if (!translated) {
      skipped.push(r.id);
      continue;
    }
    const pattern = translated.source;
    const prefixes = openingLiterals(pattern);
    const keywords = (r.keywords ?? []).map((k) => k.toLowerCase());
    // Each opening literal must be one of gitleaks' keywords (or begin with one): a prefilter as gitleaks uses them.
    if (!prefixes || prefixes.some((p) => p.length < 3 || !keywords.some((k) => p.toLowerCase().startsWith(k)))) {
      skipped.push(r.id);
      continue;
    }
    // A literal that opens with a letter or digit is found only where a word begins, so the pattern says so too.
    const wordStart = prefixes.every((p) => /^\w/.test(p));
    if (!wordStart && prefixes.some((p) => /^\w/.test(p))) {
      skipped.push(r.id);
      continue;
    }
    const anchored = !wordStart || pattern.startsWith("\\b") ? pattern : `\\b${pattern}`;
    rules.push({ id: r.id, pattern: anchored, prefixes, atWord: wordStart, ignoreCase: translated.ignoreCase, entropy: r.entropy ?? 0 });
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
  console.log(`${rules.length} rules taken; left out (no literal prefix, or syntax JavaScript reads differently): ${skipped.length}`);
}
