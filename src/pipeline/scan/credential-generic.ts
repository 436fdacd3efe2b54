/**
 * The generic credential: a machine-generated value (randomness.ts) given shortly after a
 * credential's word in any of the supported languages, whatever the form around them: a
 * note (`API token for staging: 8fA…`), a table cell, a flag (`--token 8fA…`), a header
 * (`X-Api-Key: 8fA…`), an XML element or attribute, a chat line (`mein Passwort lautet …`).
 * The rules of known forms come first (engine.ts tries this one after every other detector at
 * a start), so it reads what they leave. The first value after the word, past two words of
 * the sentence at most, decides: a name, a path, a URL, an id, a digest named as such, an
 * example or a placeholder there ends the try.
 */
import { JWT_TEMPLATE, UNSIGNED_JWT } from "./assignments.ts";
import { chosenPassword, mixedValue } from "./credential-notes.ts";
import { type Detector, NOT_AFTER_LETTER } from "./detector.ts";
import { HEX, machineRandom } from "./randomness.ts";
import { literalAlternation } from "./regex-literals.ts";

/** Words a chosen password may follow too (credential-notes.ts `mixedValue`); after the others, only a generated value counts. */
const ENGLISH_PASSWORD_WORDS = ["password", "passwd", "passphrase", "passcode", "pwd", "pword", "pass"];
const PASSWORD_WORDS = [
  ...ENGLISH_PASSWORD_WORDS,
  "mdp",
  "passwort",
  "kennwort",
  "mot de passe",
  "contraseña",
  "contrasena",
  "senha",
  "wachtwoord",
  "haslo",
  "lösenord",
  "losenord",
  "passord",
  "adgangskode",
  "salasana",
  "heslo",
  "jelszó",
  "jelszo",
  "sifre",
  // Spanish for a key and, most often in writing, a password (`clave del wifi`).
  "clave",
  "parola",
  "kata sandi",
];
/** Words of keys, tokens and secrets, in the same languages. */
/** `cred` too, short for a credential (`const cred = "…"`); only a generated value counts after it. */
const ENGLISH_KEY_WORDS = ["secret", "token", "key", "apikey", "credential", "creds", "cred", "auth", "authorization", "authentication"];
const KEY_WORDS = [
  ...ENGLISH_KEY_WORDS,
  "schlüssel",
  "schluessel",
  "zugangsdaten",
  "geheimnis",
  "clé",
  "jeton",
  "secreto",
  "credenciales",
  "chave",
  "segredo",
  "credenciais",
  "chiave",
  "segreto",
  "credenziali",
  "sleutel",
  "geheim",
  "klucz",
  "sekret",
  "nyckel",
  "nøgle",
  "anahtar",
];
/** The same in other scripts: a start where no letter of the script precedes (NOT_AFTER_LETTER). */
const SCRIPT_PASSWORD_WORDS = [
  "пароль",
  "비밀번호",
  "패스워드",
  "비번",
  "암호",
  "パスワード",
  "暗証番号",
  "密码",
  "密碼",
  "口令",
  "كلمة المرور",
  "كلمة السر",
  "पासवर्ड",
  "รหัสผ่าน",
  "סיסמה",
  "şifre",
  "κωδικ",
  "رمز عبور",
];
const SCRIPT_KEY_WORDS = [
  "ключ",
  "токен",
  "секрет",
  "토큰",
  "비밀키",
  "トークン",
  "秘密鍵",
  "シークレット",
  "令牌",
  "密钥",
  "密鑰",
  "秘钥",
];

const TOKEN_CHARS = "A-Za-z0-9+/=_.~-";
/** A chosen password's characters: printable ASCII but quotes, brackets, a comma or a semicolon (which end it in prose and code). */
const PASSWORD_CHARS = "!#$%&*+\\-./0-9=?@A-Z\\\\^_a-z|~";
const runOf = (chars: string) => new RegExp(`(?<![${chars.replace("=", "")}])[${chars}]{8,256}(?![${chars}])`, "g");
/** Runs of a token's characters, and of a password's, after a name, whole. */
const TOKEN_RUN = runOf(TOKEN_CHARS);
const PASSWORD_RUN = runOf(PASSWORD_CHARS);

/** The rest of a name after its word: an inflection, or a separator, a capital or a digit that opens the next part. */
export const NAME_REST = /^(?:s|es|e|en|n|er|et|ı|i|u|ü|si|sı)?(?:[_.-][\w.-]*|[A-Z][\w.-]*|\d[\w.-]*)?$/;
/** Names of what a credential is not, or of its metadata: `key_id`, `token_url`, `secret_name`, `password_length`. */
export const NOT_THE_VALUE =
  /(?:id|ids|name|names|type|path|file|url|uri|endpoint|format|length|len|size|version|ref|prefix|suffix|field|header|expiry|expires|expiration|ttl|count|policy|store|vault|manager|arn|region|rotation|label|description|desc|hint|reset|required|enabled|policy|limit|mode|usage|provider)$/i;
/**
 * A name's parts as words (`cacheKey`, `cache_key` → `cache Key`), so that the context's word lists meet them: for a key's
 * or a token's name (a cache's key, a page's token), not a password's (`storagePassword` is the storage account's).
 */
export const spaced = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_.-]+/g, " ");
/** A name that says the value is what a credential became or is checked by (`passwordHash`, `hashed_password`, `token_sha256`). */
export const STORED_FORM = /hash|digest|sha\d|md5|salt|checksum|fingerprint|encrypted|cipher|bcrypt|argon|scrypt|pbkdf/i;
/** Words before or around a key or token that make it something else: a record's key, a public one, a page's cursor, a form's anti-forgery token. */
export const NOT_A_CREDENTIAL =
  /\b(?:public|publishable|pub|primary|foreign|sort|partition|range|cache|idempotency|object|lookup|map|dict|row|cursor|route|i18n|translation|storage|bucket|list|item|index|group|field|column|table|form|query|event|message|state|csrf|xsrf|nonce|page|pagination|next|continuation|sync|license|licence|product|serial|activation|tracking|order|invoice|shipment|parcel|booking|confirmation|receipt|ticket|number|ssh-rsa|ssh-ed25519|ecdsa-sha2)\b/i;
/** A digest named as such: a commit, a checksum, an integrity hash. */
const DIGEST = /(?:sha-?\d*|md5|hash|hashed|checksum|digest|fingerprint|commit|revision|etag|integrity|crc\d*|sum|encrypted|bcrypt)\b/i;

/** A word of the sentence (`servidor`, `Zugang`), passed over on the way to the value. */
const PLAIN_WORD = /^[A-Za-z][a-z]+$/;
/** How far after the name the value may begin, and how many words it may pass over. */
const WINDOW = 48;
const WORDS_PASSED = 2;

/**
 * Words between the name and the value that make the value something else: an example (`e.g.`, `z. B.`), a rule or
 * a hint about credentials (`must be 8-64 characters`, `password hint:`), a change of one (`forgot`, `reset`).
 */
const NOT_ITS_VALUE =
  /\b(?:e\.\s?g|i\.\s?e|eg|for example|for instance|example|such as|like|z\.\s?b|zum beispiel|par exemple|p\.\s?ex|por ejemplo|p\.\s?ej|ad esempio|bijvoorbeeld|hint|policy|length|reset|rules?|requirements?|format|pattern|strength|expir\w*|manager|field|label|prompt|question|generator|complexity|forgot\w*|must|should|needs?|at least|minimum|maximum|characters)\b/i;

/** What base64 holding printable text says, or null (random bytes, or no base64). */
function decodedText(value: string): string | null {
  if (!/^[A-Za-z0-9+/]{12,}={0,2}$/.test(value) || value.length % 4 !== 0) return null;
  try {
    const text = atob(value);
    return /^[\x20-\x7e]+$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** Whether `value`, met after a credential's name with `between` in between, is that credential. */
function valueHolds(value: string, between: string, around: string, after: string, password: boolean, directive: boolean): boolean {
  // The value first (cheap, and most runs after a word fail it), then what stands around it. A chosen password counts
  // unquoted only, or quoted after an assignment's sign (code: ``dbpassword = `…` ``), or as a directive's value: prose
  // quotes an example (`the password 'Tr0ub4dor&3' meets the policy`); an apostrophe of the sentence before it
  // (`le mdp c'est …`) opens no quote.
  // R's `<-` assigns as `=` does (`password <- "…"`).
  const quoted = /["'“‘`][ \t]*$/.test(between) && !/(?::=|=>|<-|[:=])[ \t]*["'`]$/.test(between);
  const chosen = password && (directive || !quoted) && value.length >= 8;
  // A password's word in any language as a label, its sign right after it (`Passwort: sommer2023`, `비밀번호: qwer1234`),
  // reads as English's `password: …` does in assignments.ts: a chosen password of two kinds of character counts there.
  const labeled = chosen && /^[ \t]*[:=：][ \t]*$/.test(between) && chosenPassword(value);
  if (!machineRandom(value) && !(chosen && mixedValue(value)) && !labeled) return false;
  if (NOT_A_CREDENTIAL.test(around) || NOT_ITS_VALUE.test(between) || (HEX.test(value) && DIGEST.test(around))) return false;
  // A URL, a path, an e-mail address, a file: the value stands inside something else.
  if (after === "@" || /^[^@\s]+@[\w-]+\.[\w.-]+$/.test(value) || /:\/\/\S*$|[/\\]$/.test(between)) return false;
  if (/^sha\d+-|^data:|^AAAA/.test(value) || UNSIGNED_JWT.test(value) || JWT_TEMPLATE.test(value)) return false;
  // A crypt hash (`$1$salt$hash`, Cisco's `secret 5 …`) is what a password became, not the password.
  if (/\$[\w.\/]*\$[\w.\/]*$/.test(between)) return false;
  // Base64 of text (`dXNlcm5hbWU6cGFzc3dvcmQ=` is `username:password`) is judged as that text: a documented pair stays one.
  const text = decodedText(value);
  if (text !== null && !text.split(":").some((part) => machineRandom(part) || mixedValue(part))) return false;
  // A file in base64 (an image, a PDF, an archive): its magic opens it, or a data URL's `base64,` stands before it.
  return !/base64,$/.test(between) && !/^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR|JVBERi0|UEsDB|PD94bWwg|PHN2Zy)/.test(value);
}

function judge(m: string, text: string, index: number, words: readonly string[], script: boolean): boolean {
  const lower = m.toLowerCase();
  const word = words.find((w) => lower.startsWith(w)) ?? "";
  // A name in another script runs into its particles (`비밀번호는`): only Latin names are read on.
  const name = script ? word : (/^[^\s"'`:=<>()[\]{},;|]*/.exec(m)?.[0] ?? "");
  // What the name ends with decides, its numbering aside (`secret_path_1`).
  if (!NAME_REST.test(name.slice(word.length)) || NOT_THE_VALUE.test(name.replace(/[_.\-\d]+$/, "")) || STORED_FORM.test(name))
    return false;
  const password = PASSWORD_SET.has(word);
  return valueAfterName(text, index, name, password, password ? "" : ` ${spaced(name)}`) >= 0;
}

/**
 * Reads the value after a credential's name (`name` at `index`, `password` when its word is a password's): the first
 * run of a value's characters within the window that is not a word of the sentence decides. Returns where that run
 * begins when it is the credential, else -1. `around` adds words the name's context holds (a compound name's parts).
 */
export function valueAfterName(text: string, index: number, name: string, password: boolean, around = ""): number {
  const from = index + name.length;
  // The line's end searched for within the window only: a search to the text's end at every name made a long
  // text without line breaks quadratic.
  const reach = from + WINDOW + 256;
  const lineEnd = text.slice(from, reach).indexOf("\n");
  let rest = text.slice(from, lineEnd < 0 ? reach : from + lineEnd);
  // Nothing but a sign after the name (`API key:`): the value is the next line's.
  if (lineEnd >= 0 && /^[ \t]*[:=：>–-]?[ \t]*\r?$/.test(rest))
    rest = text.slice(from, from + rest.length + 1 + WINDOW + 256).replace(/\n[^\n]*\n[\s\S]*$/, "");
  const before = text.slice(Math.max(0, index - 24), index) + name + around;
  const runs = password ? PASSWORD_RUN : TOKEN_RUN;
  runs.lastIndex = 0;
  // The first run that is not a word of the sentence decides: a name, a path or a placeholder there ends the try.
  for (let passed = 0; passed <= WORDS_PASSED; passed++) {
    const run = runs.exec(rest);
    if (run === null || run.index > WINDOW) return -1;
    if (PLAIN_WORD.test(run[0]) && passed < WORDS_PASSED) continue;
    const between = rest.slice(0, run.index);
    const value = password ? run[0].replace(/[.,!?]+$/, "") : run[0];
    // A directive (`password "…"` alone on its line: Gradle, Chef, Puppet): its quotes hold the value, not an example.
    const directive =
      /^[ \t]+["'`]$/.test(between) &&
      /^["'`][ \t]*;?[ \t]*\r?$/.test(rest.slice(run.index + run[0].length)) &&
      /(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, index - 80), index));
    const holds = valueHolds(value, between, before + between, rest.charAt(run.index + run[0].length), password, directive);
    return holds ? from + run.index : -1;
  }
  return -1;
}

/** Longest first, so that the word a match opens with is read whole (`password` before `pass`). */
const longestFirst = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length);

export const PASSWORD_SET = new Set([...PASSWORD_WORDS, ...SCRIPT_PASSWORD_WORDS]);
/** English's words, met most: an expression of their own, so that a start at `token` runs (and brings back after a pause) a small one. */
const ENGLISH = new Set([...ENGLISH_PASSWORD_WORDS, ...ENGLISH_KEY_WORDS]);
export const LATIN = [...PASSWORD_WORDS, ...KEY_WORDS];
const SCRIPT = longestFirst([...SCRIPT_PASSWORD_WORDS, ...SCRIPT_KEY_WORDS]);

/**
 * After a Latin word, an inflection and no further letter (`keyboard`, `tokenizer`, `passion` end here, cheaply), then
 * the rest of a name after a separator (`TOKEN_PROD`).
 */
const LATIN_NAME = "(?:s|es|en|et|e|n|er|ı|si|sı)?(?![a-z\\u00C0-\\u024F])(?:[_.-][\\w.-]{0,40})?";
/** A character a value holds and a sentence's words do not: a digit or a sign. */
const VALUE_SIGN = "[0-9!#$%&*+\\-/=?@\\\\^_|~]";
/**
 * At most 48 characters of the line (or none, and the next line: `API key:` above the key), then a whole run of eight
 * or more of a value's characters holding one that is no letter: a value has a digit or a sign, a sentence's words do
 * not, so prose fails here rather than in the validator; a look ahead for such a character first fails most words of
 * prose in one short scan, before the window is searched.
 */
const WINDOW_AND_VALUE = `(?=[^\\n]{0,56}${VALUE_SIGN}|[ \\t:=：>–-]{0,6}\\n[ \\t]{0,16}[^\\n]{0,64}${VALUE_SIGN})[^\\n]{0,48}?(?:\\n[ \\t]{0,16})?(?<![${PASSWORD_CHARS.replace("=", "")}])(?=[a-z]{0,255}${VALUE_SIGN})[${PASSWORD_CHARS}]{8,256}(?![${PASSWORD_CHARS}])`;

/** What WINDOW_AND_VALUE needs (Detector.needs): a value sign within 56 characters of the name's end, or a line's end within 6. */
const signNear = (words: readonly string[], nameRest: number) => ({
  anyOf: "0123456789!#$%&*+-/=?@\\^_|~\n",
  within: (words[0]?.length ?? 0) + nameRest + 57,
});

/** A rejected try resumes after the word, where another rule's start may stand (`password설정은getenv(…)`). */
const AFTER_NAME = /^[A-Za-z\u00C0-\u024F]{3,}|^[^\s\w]{2}/;

/** A detector for Latin words: at a word's start, the word, the rest of its name, the window and the value. */
function latinDetector(words: string[]): Detector {
  const sorted = longestFirst(words);
  return {
    kind: "generic_credential",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:${literalAlternation(sorted)})${LATIN_NAME}${WINDOW_AND_VALUE}`,
    validate: (m, text, index) => judge(m, text, index, sorted, false),
    start: { at: "word", literals: sorted },
    needs: signNear(sorted, 43),
    valueAfter: AFTER_NAME,
  };
}

export const CREDENTIAL_GENERIC_DETECTORS: Detector[] = [
  latinDetector(LATIN.filter((w) => ENGLISH.has(w))),
  latinDetector(LATIN.filter((w) => !ENGLISH.has(w))),
  {
    kind: "generic_credential",
    category: "secret",
    ignoreCase: true,
    pattern: `${NOT_AFTER_LETTER}(?:${literalAlternation(SCRIPT)})${WINDOW_AND_VALUE}`,
    validate: (m, text, index) => judge(m, text, index, SCRIPT, true),
    start: { at: "literal", literals: SCRIPT },
    needs: signNear(SCRIPT, 0),
    valueAfter: AFTER_NAME,
  },
];
