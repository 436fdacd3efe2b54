/**
 * A credential written as the fallback of an environment lookup: the value a program
 * uses when the variable is unset, so it ships in the code (`os.getenv("DB_PASSWORD",
 * "S3cr…")`, `SECRET := getenv("APP_KEY", "…")`, `os.environ.get("X") or "…"`,
 * `process.env.API_TOKEN || "…"`, `ENV.fetch("SECRET", "…")`, a shell or compose file's
 * `${POSTGRES_PASSWORD:-…}`). It counts when the variable, the argument or the name the
 * result is assigned to names a credential, and the fallback is a real value
 * (placeholders and empty defaults stay allowed).
 */
import { passwordValue } from "./credential-forms.ts";
import type { Detector } from "./detector.ts";
import { looksLikePlaceholder } from "./validators.ts";

/** A name that says its value is a credential (`DB_PASSWORD`, `DBPW`, `jwtSecret`, `SECRET_KEY`, `creds`), not where it is (`TOKEN_URL`). */
const CREDENTIAL_NAME =
  /(?:password|passwd|pwd|passphrase|passcode|secret|token|api[_.-]?key|private[_.-]?key|access[_.-]?key|credentials?|creds|pw\b|_pass\b)(?![_.-]?(?:url|uri|name|file|path|id|hash|type|length|endpoint|header)\b)/i;
/** The fallback, quoted (a Python bytes literal too, and quotes escaped inside a JSON string). */
const FALLBACK = `b?\\\\?(?:"[^"\\n]{3,128}"|'[^'\\n]{3,128}')`;
/** Calls that read a variable and take a default as their second argument. */
const LOOKUPS = ["getenv(", "get_env(", "environ.get(", "env.get(", "env.fetch(", "getordefault("];
/** The same, and `process.env.`, for a fallback after `or`, `||`, `??` or `?:`. */
const READS = ["getenv(", "environ.get(", "env.get(", "process.env."];

/** The text on the match's line before it, where the name the result is assigned to stands (`SECRET := `, `password = `). */
const lineBefore = (text: string, index: number) => text.slice(Math.max(text.lastIndexOf("\n", index - 1) + 1, index - 64), index);

/** The fallback literal: the last quoted run of the match (its quote holds no quote of the same kind; one escaped in JSON). */
function fallbackOf(match: string): { value: string; at: number } {
  const quote = match.at(-1) ?? "";
  const open = match.lastIndexOf(quote, match.length - 2);
  return { value: match.slice(open + 1, -1).replace(/\\$/, ""), at: open };
}

function fallbackCredential(match: string, text: string, index: number): boolean {
  const { value, at } = fallbackOf(match);
  if (!passwordValue(value, true, 6) || looksLikePlaceholder(value)) return false;
  return CREDENTIAL_NAME.test(match.slice(0, at)) || CREDENTIAL_NAME.test(lineBefore(text, index));
}

export const CREDENTIAL_FALLBACK_DETECTORS: Detector[] = [
  // `getenv("DB_PASSWORD", "…")`, `getenv(SECRET, "…")`, `ENV.fetch("API_TOKEN", "…")`, `getOrDefault("DB_PASS", "…")`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:getenv|get_env|environ\\.get|env\\.get|env\\.fetch|getordefault)\\([ \\t]{0,3}[^,()\\n]{1,64},[ \\t]{0,3}${FALLBACK}`,
    validate: fallbackCredential,
    start: { at: "word", literals: LOOKUPS },
  },
  // `os.environ.get("PASSWORD") or "…"`, `getenv('DB_PASS') ?: '…'` (PHP), `process.env.API_TOKEN || "…"`, `?? "…"`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:(?:getenv|environ\\.get|env\\.get)\\([^()\\n]{1,64}\\)|process\\.env\\.[A-Za-z_][A-Za-z0-9_]{0,63})[ \\t]{0,3}(?:or|\\|\\||\\?\\?|\\?:)[ \\t]{0,3}${FALLBACK}`,
    validate: fallbackCredential,
    start: { at: "word", literals: READS },
  },
  // `${POSTGRES_PASSWORD:-S3cr…}` in a shell script or a compose file: the variable's name says what the default is.
  {
    kind: "password_assignment",
    category: "secret",
    pattern: "(?<=\\$\\{[A-Za-z_][A-Za-z0-9_]{0,63}):-[^}\\s\"'$]{6,128}\\}",
    validate: (m, text, index) => {
      const name = /\$\{([A-Za-z_][A-Za-z0-9_]*)$/.exec(text.slice(Math.max(0, index - 66), index))?.[1] ?? "";
      const fallback = m.slice(2, -1);
      return CREDENTIAL_NAME.test(name) && passwordValue(fallback, true, 6) && !looksLikePlaceholder(fallback);
    },
    start: { at: "literal", literals: [":-"] },
  },
];
