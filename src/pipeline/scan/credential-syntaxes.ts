/**
 * Credentials in the syntaxes the assignment rule (assignments.ts) has no sign for: Erlang's and
 * Elixir's tuples (`{default_pass, <<"…">>}` in a RabbitMQ config), Clojure's and EDN's keywords
 * (`{:user "app" :password "…"}`), Lisp's `(setq smtp-password "…")`, Apple's property lists
 * (`<key>Password</key><string>…</string>` in a profile), MySQL's `PASSWORD('…')` and SQL Server's
 * `sp_addlogin 'user', '…'`. Written from the languages' and tools' syntax; the value is judged as a
 * quoted password is (credential-forms.ts), a token's or a key's by its randomness.
 */
import { passwordValue } from "./credential-forms.ts";
import type { Detector } from "./detector.ts";
import { machineRandom } from "./randomness.ts";

/** A password's word, as these syntaxes name it. */
const PASSWORD_WORD = "(?:password|passwd|passphrase|pass|pwd|secret)";
/** The last quoted string of a match, without its quotes. */
const lastQuoted = (m: string) => /["']([^"'\n]*)["'][^"']*$/.exec(m)?.[1] ?? "";

export const CREDENTIAL_SYNTAX_DETECTORS: Detector[] = [
  // Erlang's and Elixir's tuples: `{password, "…"}`, `{default_pass, <<"…">>}`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    // Opened at the brace and the name's first letters: a start at every brace of JSON would cost more than the rare
    // tuple is worth, so a prefix other than RabbitMQ's `default_` (`{db_password, …}`) is not read.
    pattern: `\\{[ \\t]{0,1}(?:default_)?${PASSWORD_WORD}[ \\t]{0,3},[ \\t]{0,3}(?:<<)?"[^"\\n]{3,128}"`,
    validate: (m) => passwordValue(lastQuoted(m), true, 6),
    start: {
      at: "literal",
      literals: ["{pass", "{pwd", "{secret", "{default_pass", "{ pass", "{ pwd", "{ secret", "{ default_pass"],
    },
  },
  // Clojure's and EDN's keywords, a value after a blank: `{:dbtype "postgresql" :user "app" :password "…"}`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    // Opened at the password's word, the keyword's colon (and a prefix joined by `-`) before it.
    pattern: `\\b${PASSWORD_WORD}(?<=(?<![\\w:]):(?:[A-Za-z0-9]{1,20}-){0,2}${PASSWORD_WORD})[ \\t]{1,3}"[^"\\n]{3,128}"`,
    validate: (m) => passwordValue(lastQuoted(m), true, 6),
    start: { at: "word", literals: ["password", "passwd", "passphrase", "pass", "pwd", "secret"] },
  },
  // Lisp's assignment of a name that holds a password: `(setq erc-password "…")`, `(defvar smtp-pass "…")`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\((?:setq|setf|setq-default|defvar|defparameter|defconst|def)[ \\t]{1,3}[\\w-]{0,40}(?:password|passwd|passphrase|pass|secret)[\\w-]{0,20}[ \\t]{1,3}"[^"\\n]{3,128}"`,
    validate: (m) => passwordValue(lastQuoted(m), true, 6),
    start: { at: "literal", literals: ["(setq", "(setf", "(defvar", "(defparameter", "(defconst", "(def "] },
  },
  // Apple's property lists: a key ending in a password's, a secret's or a token's word (not `PasswordPolicy`), then its string.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern:
      "<key>[^<\\n]{0,40}(?:password|passwd|passphrase|secret|token|api_?key)\\d{0,3}</key>\\s{0,64}<string>[^<\\n]{3,256}</string>",
    validate: (m) => {
      const value = /<string>([^<]*)<\/string>$/.exec(m)?.[1] ?? "";
      const key = /<key>([^<]*)<\/key>/.exec(m)?.[1] ?? "";
      return /pass|secret/i.test(key) ? passwordValue(value, true, 6) : machineRandom(value);
    },
    start: { at: "literal", literals: ["<key>"] },
  },
  // MySQL's hashing call given the password itself: `SET PASSWORD FOR 'app'@'%' = PASSWORD('…')`, `SET password = PASSWORD('…')`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    // `\\b` first, so that the engine tries it among the word rules, ahead of the generic one at the same word.
    pattern: `\\b(?<==[ \\t]{0,3})(?:OLD_)?PASSWORD\\([ \\t]{0,3}(?:'[^'\\n]{3,128}'|"[^"\\n]{3,128}")[ \\t]{0,3}\\)`,
    validate: (m) => passwordValue(lastQuoted(m), true, 3),
    start: { at: "word", literals: ["password(", "old_password("] },
  },
  // SQL Server's older procedure: `EXEC sp_addlogin 'app', '…'`, `sp_addlogin @loginame = 'app', @passwd = '…'`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\bsp_addlogin[ \\t]{1,3}(?:@loginame[ \\t]{0,3}=[ \\t]{0,3})?N?'[^'\\n]{1,64}'[ \\t]{0,3},[ \\t]{0,3}(?:@passwd[ \\t]{0,3}=[ \\t]{0,3})?N?'[^'\\n]{3,128}'`,
    validate: (m) => passwordValue(lastQuoted(m), true, 3),
    start: { at: "word", literals: ["sp_addlogin"] },
  },
];
