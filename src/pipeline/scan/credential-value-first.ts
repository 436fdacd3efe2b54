/**
 * The generic credential read from its value back to its name: a generated run of 24 or more base64 characters
 * whose name, within the window before it, holds a credential's word anywhere (`dbpassword`, `DBPASS`, `mysqlPwd`,
 * `smtpPassword`, `clientsecret`, `redisAuth`, `Datenbankpasswort`), in any position a config, code or prose gives it
 * (`->`, a blank, backticks, a table cell, an XML element, a flag, a note). credential-generic.ts reads from names
 * that open with the word; a name that holds it inside opens no word the trigger walk could key, so this one starts
 * at the value (the walk's base64 runs) and asks the same questions of the name and what stands between. A chosen
 * password under such a name (`dbpassword -> Qx7!pLm2`) starts at its sign between a letter or digit and another.
 */
import { NOT_A_CREDENTIAL_KEY } from "./assignments.ts";
import { LATIN, NAME_REST, NOT_THE_VALUE, PASSWORD_SET, STORED_FORM, spaced, valueAfterName } from "./credential-generic.ts";
import type { Detector } from "./detector.ts";
import { literalAlternation } from "./regex-literals.ts";

/** The credential's words, longest first (`password` before `pass`), and `pw` of compound names (`rootpw`, `admin_pw`). */
const WORDS = [...LATIN, "pw"].sort((a, b) => b.length - a.length);
const WORD = new RegExp(literalAlternation(WORDS), "gi");
/** Words that end in a credential's word and name something else. */
const ENGLISH_ENDINGS = /(?:mon|tur|turn|hoc|joc|don|whis|lac|malar)key$|(?:by|com|sur|tres|over|under|encom)pass$/i;
/** The characters of a name (`DB_PASSWORD`, `api-secret`, `app.token`), read back from a word to where the name begins. */
const NAME_CHAR = /[\w.-]/;
/** How far before the value a name may stand, with its word. */
const LOOK_BACK = 112;
/** A value's characters before its base64 run (`=` is a sign there, base64 pads only at the end). */
const TOKEN_CHAR = /[A-Za-z0-9+/_.~-]/;
/** A chosen password's characters before its sign (credential-generic.ts's, but `=`, a sign before a value). */
const PASSWORD_CHAR = /[!#$%&*+\-./0-9?@A-Z\\^_a-z|~]/;
/**
 * The password's words that hold `pass` or `pw` (`password`, `passwort`, `passord`, `mot de passe`, `pwd`, `pw`): after a
 * key's or a token's word only a generated value counts, and a name holding another language's word inside it
 * (`dbKennwort`) is left to the readings from the name; so a text is asked one cheap question first (namesAPassword).
 */
const PASSWORD_WORDS = WORDS.filter((w) => (PASSWORD_SET.has(w) || w === "pw") && /pass|pw/.test(w));
const PASSWORD_WORD = new RegExp(literalAlternation(PASSWORD_WORDS), "gi");
/** The signs a chosen password's start is met at (as literals: the walk reports each). */
const SIGNS = ["!", "#", "$", "%", "&", "*", "@", "^"];

/**
 * Whether the value around `index` (a base64 run's start, or a sign inside a chosen password) is the value of a
 * credential's name standing before it: `chars` are the value's, read back to where it begins; `words` the names'.
 */
function namedBefore(text: string, index: number, chars: RegExp, words: RegExp): boolean {
  let start = index;
  while (start > 0 && index - start < 64 && chars.test(text.charAt(start - 1))) start--;
  let from = Math.max(0, start - LOOK_BACK);
  // The line of the value, or the line above when nothing but a sign stands before the value on its own (`API key:` above it).
  // Line breaks are searched for within the look-back only: a search to the text's start at every value made a long text
  // without line breaks quadratic.
  const reach = text.slice(from, start);
  const lineStart = reach.lastIndexOf("\n");
  if (lineStart >= 0) {
    const above = /^[ \t]*$/.test(reach.slice(lineStart + 1)) ? (lineStart > 0 ? reach.lastIndexOf("\n", lineStart - 1) : -1) : lineStart;
    from += above + 1;
  }
  const window = text.slice(from, start);
  // A PEM block's body under its armour (`-----BEGIN PRIVATE KEY-----`) is the key rule's, whole.
  if (window.includes("-----")) return false;
  const found: number[] = [];
  words.lastIndex = 0;
  for (let m = words.exec(window); m !== null; m = words.exec(window)) found.push(m.index, m[0].length);
  // The closest name decides.
  for (let i = found.length - 2; i >= 0; i -= 2) {
    const at = from + (found[i] as number);
    const wordEnd = at + (found[i + 1] as number);
    let nameStart = at;
    while (nameStart > from && at - nameStart < 40 && NAME_CHAR.test(text.charAt(nameStart - 1))) nameStart--;
    const name = text.slice(nameStart, start).match(/^[^\s"'`:=<>()[\]{},;|]*/)?.[0] ?? "";
    if (name.length < wordEnd - nameStart) continue;
    const word = text.slice(at, wordEnd).toLowerCase();
    const rest = name.slice(wordEnd - nameStart);
    if (!NAME_REST.test(rest) || NOT_THE_VALUE.test(name.replace(/[_.\-\d]+$/, ""))) continue;
    if (STORED_FORM.test(name)) return false;
    const upToWord = name.slice(0, wordEnd - nameStart);
    if (ENGLISH_ENDINGS.test(upToWord) || (/key$/i.test(upToWord) && NOT_A_CREDENTIAL_KEY.test(upToWord))) continue;
    const password = PASSWORD_SET.has(word) || word === "pw";
    const value = valueAfterName(text, nameStart, name, password, password ? "" : ` ${spaced(name)}`);
    return value >= 0 && value <= start && !/\s/.test(text.slice(value, start));
  }
  return false;
}

export const CREDENTIAL_VALUE_FIRST_DETECTOR: Detector = {
  kind: "generic_credential",
  category: "secret",
  // In the pass apart: a value's run can open inside another rule's match (Google's refresh token `1//0…`, read from its
  // `//`), and a match here, in that rule's pass, would hide it; a finding over another rule's value is then dropped
  // (withoutCoveredGenerics). Case folds only in the expression; the validator reads the text as it is.
  ignoreCase: true,
  apart: true,
  // Where the walk opens a base64 run: a word's start, no run's character before it. The credential's word before it is
  // the validator's to find in the window (a look-behind for any of the words cost each run of a path or of base64
  // about 8 µs; the window's search, about 1).
  pattern: "\\b(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24}[A-Za-z0-9+/=_.~-]{0,232}",
  validate: (_m, text, index) => namedBefore(text, index, TOKEN_CHAR, WORD),
  start: { at: "base64-run" },
  // Rejected, the scan goes on inside the run: a rule of this pass may open there (`unethical/immoral/illegal requests`).
  valueAfter: /^/,
};

/**
 * Whether the text holds a password's word anywhere, asked once a text (the last text's answer is kept): most texts
 * with signs between letters (code's `a*b`, `a&&b`, an e-mail's `@`) name no password, and are done with here.
 */
let lastText: string | null = null;
let lastHolds = false;
/** One first letter for every alternative: searched at under a microsecond a KB (the words' alternation took about five). */
const PASSWORD_ANYWHERE = /p(?:ass|w)/i;
function namesAPassword(text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastHolds = PASSWORD_ANYWHERE.test(text);
  }
  return lastHolds;
}

export const CREDENTIAL_VALUE_FIRST_PASSWORD_DETECTOR: Detector = {
  kind: "generic_credential",
  category: "secret",
  ignoreCase: true,
  apart: true,
  // A sign with a letter or digit on each side (`Qx7!pLm2`; a list's `* item`, a heading's `# `, a shell's ` $HOME` fail
  // at once), then the rest of the value; the password's word before it is the validator's to find (searched for in
  // the expression, it cost each such sign of code and prose a few microseconds).
  pattern: "(?<=[A-Za-z0-9])[!#$%&*@^](?=[A-Za-z0-9])[!#$%&*+\\-./0-9=?@A-Z\\\\^_a-z|~]{0,64}",
  validate: (_m, text, index) => namesAPassword(text) && namedBefore(text, index, PASSWORD_CHAR, PASSWORD_WORD),
  start: { at: "literal", literals: SIGNS },
  valueAfter: /^/,
};
