/**
 * Credentials in generic forms, whoever issued them: connection strings, `.netrc`
 * entries, credential constructors (`NetworkCredential("user","pass")`), HTTP
 * Authorization headers, XML password elements and PuTTY private keys. The password
 * must be a real value: placeholders (`changeme`, `<password>`, `${DB_PASS}`, `***`)
 * and code that reads one from elsewhere do not count.
 */
import type { Detector, GatedSecretRule } from "./detector.ts";
import { entropy, hasPlaceholderWord, looksLikePlaceholder, readsFromEnvironment, secretLike } from "./validators.ts";

/** Words that stand for a password in documentation, and type or keyword names that follow `password:` in code. */
const NOT_A_PASSWORD =
  /^(?:pass(?:word)?|passwd|pwd|secret|credentials?|string|str|text|bool(?:ean)?|int|integer|number|null|nil|none|true|false|undefined|required|optional|any|object|hidden|input|prompt|varchar|char|bytes|empty|blank|n\/a|tbd|todo|hunter2|value|token|same|unknown)$/i;

/** A word that names a value's type or role, or a credential's own name (`password`, `token`, `string`): no value. */
export const plainWord = (v: string) => NOT_A_PASSWORD.test(v);

/**
 * Variables, templates, references, calls and URLs: `${X}`, `{{ x }}`, `%env(X)%`, `prefix_{}`, `!Ref X`, `getpass()`;
 * and the end of one string joined to code by an operator (`';PWD=' . $config['password'] .`), read from its quote.
 */
export const notAValue = (v: string) =>
  /^\s*(?:\.|\+|&)\s+[$\w]|^[$%{<*[(@#:]|^\\?\$|^x{3,}|\.{3}|\(\)?$|^[A-Z_]{2,}\(|\{\d*\}|%env\(|%s|:\/\/|^!(?:Ref|Sub|GetAtt|ImportValue|Join|If|Select|Base64|FindInMap)\b/.test(
    v,
  );

/** Whether one character repeated four times or more makes half the value or more. */
function repeatedOverHalf(v: string): boolean {
  let longest = 1;
  let run = 1;
  for (let i = 1; i < v.length; i++) {
    run = v[i] === v[i - 1] ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  return longest >= 4 && longest * 2 >= v.length;
}

/**
 * A password someone chose: at least `min` characters, no placeholder or variable, not
 * a type name, and when unquoted not an identifier or a call (`password = getpass()`).
 */
export function passwordValue(value: string, quoted: boolean, min = 6): boolean {
  const v = value.replace(/^["'`]+/, "").replace(/[`'"\s;,)\]}]+$/, "");
  if (v.length < min || NOT_A_PASSWORD.test(v) || readsFromEnvironment(v)) return false;
  // An interface's text under a password key (a translation file's `"wrong_password": "Passordet er feil. Prøv igjen."`,
  // `"one_time_password": "Engangskode:"`): a label ending in a colon, or a sentence of three words or more.
  if (/^\p{L}[\p{L} '-]*:$/u.test(v) || /^\p{L}+(?: [^\s]+){2,}[.!?…]$/u.test(v)) return false;
  if (notAValue(value) || notAValue(v)) return false;
  // A documentation word (`your-password`, `changeme`), a character repeated over half the value (`xxxxxxxx`, `pass0000`;
  // a chosen `D00dle2222` keeps its tail), or few distinct characters for the length (a short password has few).
  if (hasPlaceholderWord(v) || repeatedOverHalf(v) || entropy(v) < (v.length >= 8 ? 2.5 : 1.9)) return false;
  // Digits counted up or down (`123456`, `4321`): the stand-in a form or a fixture types, not a choice.
  if (/^\d{4,}$/.test(v) && ("01234567890123456789".includes(v) || "98765432109876543210".includes(v))) return false;
  // The word itself numbered (`password1`, `Pwd_2`): a fixture's or a template's stand-in, as `password` is.
  if (/^(?:password|passwd|pass|pwd)[_-]?\d{1,3}$/i.test(v)) return false;
  // Words that name the value for what it is (`emails_secret`, `db-password`, `my_api_key`): a label standing in for it.
  if (/^[a-z]+(?:[_-][a-z]+)+$/.test(v) && /(?:^|[_-])(?:password|passwd|pass|pwd|pw|secret|token|key|creds?)(?:[_-]|$)/.test(v)) return false;
  // An environment variable's name standing for its value (`DB_PASSWORD=DB_PASSWORD`).
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v)) return false;
  if (quoted) return true;
  // Unquoted, a value may be code: brackets, a member access (`req.body.password`), a camelCase or snake_case name.
  if (
    /[[\](){}]/.test(v) ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) ||
    /^[a-z]+(?:[A-Z][a-z]+)+$/.test(v) ||
    /^[a-z]+(?:_[a-z]+)+$/.test(v)
  )
    return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((c) => c.test(v)).length;
  return classes >= 2;
}

/** Authorization schemes that carry a token as it is (not base64 of a user and a password). */
const TOKEN_SCHEMES = "(?:bearer|token|bot|apikey|api-key|sso-key|ssws|splunk|jwt)";

/** The last quoted string of a match (`"pass"` in `NetworkCredential("user", "pass")`). */
const lastQuoted = (m: string) => /["']([^"'\n]*)["'][^"']*$/.exec(m)?.[1] ?? "";

/** What a base64 `Basic` credential holds: `user:password` with a real password. */
export function basicCredential(encoded: string): boolean {
  let decoded: string;
  try {
    decoded = atob(encoded);
  } catch {
    return false;
  }
  decoded = decoded.trimEnd();
  const colon = decoded.indexOf(":");
  if (colon < 1 || /[^\x20-\x7e]/.test(decoded)) return false;
  // The specification's and the encyclopedia's example (`Aladdin:open sesame`) is documentation, as AWS's `…EXAMPLE` keys are.
  if (/^aladdin:open ?sesame$/i.test(decoded)) return false;
  return passwordValue(decoded.slice(colon + 1), true, 3) && !looksLikePlaceholder(decoded.slice(0, colon) + decoded.slice(colon + 1));
}

/** A connection string's other keys, before its password: the `Password=` is one of a driver's, not prose. */
const CONNECTION_KEYS =
  /(?:server|data source|host|hostname|uid|user ?id|user(?:name)?|database|initial catalog|driver|dsn|port|address)\s{0,3}=/i;

/** `Server=db;Uid=app;Pwd=...`: an ODBC, ADO.NET or JDBC property string holds the password at `index`. */
export function inConnectionString(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 300), index);
  return /;\s{0,3}$/.test(before) && CONNECTION_KEYS.test(before);
}

export const CREDENTIAL_FORM_DETECTORS: Detector[] = [
  // `.netrc` and `_netrc`: `machine host login name password secret`, on one line or several.
  {
    kind: "netrc_password",
    category: "secret",
    pattern: "\\b(?:machine\\s{1,10}[^\\s]{1,253}|default)\\s{1,10}login\\s{1,10}[^\\s]{1,128}\\s{1,10}password\\s{1,10}[^\\s]{1,128}",
    validate: (m) => passwordValue(m.slice(m.lastIndexOf("password") + 8).trim(), true, 3),
    start: { at: "word", literals: ["machine", "default"] },
  },
  // Credential constructors: .NET's NetworkCredential, SqlCredential and UserPasswordCredential, PowerShell's PSCredential
  // (`New-Object …PSCredential ("user", "…")`, a blank before its parenthesis), Java's and Python's basic-auth helpers, with literal strings.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern:
      "\\b(?:NetworkCredential|PSCredential|SqlCredential|UserPasswordCredential|UsernamePasswordCredentials?|PasswordAuthentication|SimpleCredentials|HTTPBasicAuth|HTTPDigestAuth|BasicAuth|BasicAWSCredentials|UsernamePasswordAuthenticationToken)[ \\t]{0,3}\\(\\s{0,3}(?:\\w{1,20}[:=]\\s{0,3})?[\"'][^\"'\\n]{1,128}[\"']\\s{0,3},\\s{0,3}(?:\\w{1,20}[:=]\\s{0,3})?[\"'][^\"'\\n]{1,128}[\"']",
    validate: (m) => passwordValue(lastQuoted(m), true, 3),
  },
  // Python requests' `auth=("user", "pass")`, and PowerShell's plain-text secure strings.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: "\\bauth\\s{0,3}=\\s{0,3}[(\\[]\\s{0,3}[\"'][^\"'\\n]{1,128}[\"']\\s{0,3},\\s{0,3}[\"'][^\"'\\n]{1,128}[\"']\\s{0,3}[)\\]]",
    validate: (m) => passwordValue(lastQuoted(m), true, 3),
  },
  {
    kind: "credential_constructor",
    category: "secret",
    ignoreCase: true,
    // A literal argument, quoted (escaped quotes too) or bare, after any of the cmdlet's switches: without -AsPlainText the
    // argument is an encrypted standard string, a secret as well. Variables, calls and pipes are code, not values.
    pattern:
      "\\bConvertTo-SecureString(?:\\s{1,3}-(?:String|Force|AsPlainText)\\b){0,3}\\s{1,3}(?:\\\\?[\"'][^\"'\\n\\\\]{1,128}|[^\\s\"'\\\\$(|{@-][^\\s\"'\\\\|)]{2,127})",
    validate: (m) => {
      const arg = m.replace(/^ConvertTo-SecureString(?:\s+-\w+)*\s+/i, "");
      const quoted = /^\\?["']/.test(arg);
      return passwordValue(arg.replace(/^\\?["']/, ""), quoted, quoted ? 3 : 6);
    },
  },
  // Secrets on a command line: `--password Sne3sd8AZjq`, `-secret …`, `--passphrase "…"`, `--api-key …` (mysql, gpg, CLIs).
  // Tried where the dash opens the flag: chat about tokens and passwords names them often, flags rarely.
  {
    kind: "command_line_secret",
    category: "secret",
    ignoreCase: true,
    pattern:
      "(?<![\\w-])--?(?:password|passwd|passphrase|secret|client-secret|token|api-key|apikey|api_key)[ \\t]{1,3}(?:\"[^\"\\n]{3,128}\"|'[^'\\n]{3,128}'|(?=[^\\s\"'`<>]{0,127}[^a-z\\s\"'`<>])[^\\s\"'`<>]{3,128})",
    // Unquoted, a value of letters alone is a word (`--token flag`): the expression turns it down before a match is built.
    validate: (m) => {
      const value = m.replace(/^-+[\w-]+[ \t]+/, "");
      return passwordValue(value, /^["']/.test(value), 6);
    },
    // Rejected (`-Password (ConvertTo-SecureString "…"`), the scan resumes at the value, where a credential may start.
    valueAfter: /^-+[\w-]+[ \t]+/,
    start: {
      at: "literal",
      literals: ["--pass", "--secret", "--token", "--api", "--client-secret", "-pass", "-secret", "-token", "-api", "-client-secret"],
    },
  },
  // A password told in prose: `my password is 237dg546fs9`, `the pwd was Tr0ub4dor3`. Quoted or not, the value needs a
  // non-letter: `the password is wrong` is a sentence, `'correcthorsebatterystaple'` the textbook example.
  {
    kind: "password_in_prose",
    category: "secret",
    ignoreCase: true,
    pattern:
      "\\b(?:password|passwd|passcode|pwd)[ \\t]{1,3}(?:is|was)[ \\t]{1,3}(?:\"[^\"\\n]{3,128}\"|'[^'\\n]{3,128}'|(?=[^\\s\"'`<>]{0,127}[^a-z\\s\"'`<>.,;:!?])[^\\s\"'`<>]{3,128})",
    validate: (m) => {
      const value = m.replace(/^\w+[ \t]+\w+[ \t]+/, "").replace(/[.,;:!?]+$/, "");
      return /[^A-Za-z"']/.test(value) && passwordValue(value, /^["']/.test(value), 6);
    },
  },
  // HTTP Authorization headers and their values in code: Basic (user:password in base64), Bearer tokens, and the other
  // schemes APIs define for a token (`Token` for Django REST and GitHub, `Bot` for Discord, `SSWS` for Okta, GoDaddy's `sso-key`).
  {
    kind: "authorization_header",
    category: "secret",
    ignoreCase: true,
    // A proxy's header too (`Proxy-Authorization: Basic …`), opened at its first word: the assignment would take the whole name.
    pattern: `\\b(?:proxy-)?authorization["']?\\s{0,3}[:=,]\\s{0,3}["']?\\s{0,3}(?:basic\\s{1,3}[a-z0-9+/]{6,512}={0,2}|${TOKEN_SCHEMES}\\s{1,3}[a-z0-9._~+/:-]{16,2048}={0,2})(?![a-z0-9+/=._~-])`,
    // Rejected, the scan resumes at the token, which may be a credential of a known kind.
    valueAfter: new RegExp(`(?:basic|${TOKEN_SCHEMES})\\s{1,3}`, "i"),
    start: { at: "word", literals: ["authorization", "proxy-authorization"] },
    validate: (m) => {
      const value = m.replace(/^[^:=,]*[:=,]\s*["']?\s*/, "");
      const [scheme, token = ""] = value.split(/\s+/);
      if (scheme?.toLowerCase() === "basic") return basicCredential(token);
      return secretLike(token, 3.2) && /\d/.test(token) && /[A-Za-z]/.test(token);
    },
  },
  // A settings list of name and value pairs (Postman environments, CI variables): `{"key": "db_password", "value": "..."}`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern:
      '"(?:key|name)"\\s{0,3}:\\s{0,3}"[\\w.-]{0,40}?(?:password|passwd|pwd|secret|token|api_?key)"\\s{0,3},\\s{0,3}"value"\\s{0,3}:\\s{0,3}"[^"\\n]{3,128}"',
    validate: (m) => passwordValue(lastQuoted(m), true, 6),
    start: { at: "literal", literals: ['"key"', '"name"'] },
  },
  // Docker's config.json: `"auth": "<base64 of user:password>"`.
  {
    kind: "docker_auth",
    category: "secret",
    pattern: '"auth"\\s{0,3}:\\s{0,3}"[A-Za-z0-9+/]{8,512}={0,2}"',
    validate: (m) => basicCredential(lastQuoted(m)),
    start: { at: "literal", literals: ['"auth"'] },
  },
  // curl's TLS and key passwords (`--tlspassword`, `--proxy-tlspassword`, `--pass`).
  {
    kind: "curl_basic_auth",
    category: "secret",
    pattern: "\\bcurl [^\\n]{0,256}?--(?:proxy-)?(?:tlspassword|pass)(?:=|[ \\t]{1,5})[\"']?[^\\s\"']{3,128}",
    validate: (m) => passwordValue(m.replace(/^[\s\S]*--(?:proxy-)?(?:tlspassword|pass)[= \t]+["']?/, ""), true, 3),
  },
  // A token as a URL's user (`https://<PAT>@dev.azure.com/org`, `https://<token>@github.com`).
  {
    kind: "url_token",
    category: "secret",
    pattern: "://[A-Za-z0-9_-]{30,128}@",
    validate: (m) => secretLike(m.slice(3, -1), 3.5) && /\d/.test(m) && /[A-Za-z]/.test(m),
    start: { at: "literal", literals: ["://"] },
  },
  // SSH.com's (Tectia's) private keys, the format ssh-keygen -e writes: the header, when base64 lines follow.
  {
    kind: "private_key",
    category: "secret",
    pattern: "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----",
    validate: (_m, text, index) => /\n[A-Za-z0-9+/]{40}/.test(text.slice(index, index + 4096)),
    start: { at: "literal", literals: ["---- BEGIN SSH2"] },
  },
  // PuTTY private key files: the header, when the private lines follow.
  {
    kind: "putty_private_key",
    category: "secret",
    pattern: "\\bPuTTY-User-Key-File-[1-3]:",
    validate: (_m, text, index) => /Private-Lines:\s{0,3}\d{1,3}\s{1,3}[A-Za-z0-9+/]{20}/.test(text.slice(index, index + 4096)),
  },
];

/**
 * `<password>s3cr3t</password>`, `<db_passwords>...</db_passwords>` in XML configurations
 * (Maven settings, NuGet, Tomcat users). Gated: searched through a text only when it
 * holds `password>` or the like, since a start at every `<` would cost HTML and code dearly.
 */
export const XML_PASSWORD_RULE: GatedSecretRule = {
  kind: "xml_password",
  regex: /<[\w.-]{0,40}?(?:password|passwd|pwd|secret)s?>[^<\n]{3,128}<\//gi,
  keywords: ["password>", "passwords>", "passwd>", "pwd>", "secret>", "secrets>"],
  validate: (m) => passwordValue(m.slice(m.indexOf(">") + 1, -2), true, 3),
};

/**
 * A setting written as an XML element with a name and a value: .NET's `<add key="ApiKey" value="…"/>`,
 * Spring's and Ant's `<property name="password" value="…"/>`, Java's XML properties `<entry key="db.password">…</entry>`.
 * Gated by the element's opening, which HTML and most code never write.
 */
export const XML_SETTING_RULE: GatedSecretRule = {
  kind: "xml_password",
  regex:
    /<(?:add|property|entry|param|parameter|setting|constant|env|variable)\s{1,3}(?:key|name)\s{0,3}=\s{0,3}"[\w.:-]{0,40}?(?:password|passwd|pwd|secret|token|api[_.-]?key|access[_.-]?key|secret[_.-]?key)"(?:\s{1,3}value\s{0,3}=\s{0,3}"[^"\n]{3,128}"|\s{0,3}>[^<\n]{3,128}<\/)/gi,
  keywords: ["<add ", "<property ", "<entry ", "<param ", "<parameter ", "<setting ", "<constant ", "<env ", "<variable "],
  validate: (m) => {
    const value = /value\s*=\s*"([^"]*)"$/i.exec(m)?.[1] ?? m.slice(m.lastIndexOf(">") + 1, -2);
    const name = /(?:key|name)\s*=\s*"([^"]*)"/i.exec(m)?.[1] ?? "";
    // A chosen password by its name; a token or key must look generated.
    if (/pass|pwd|secret$/i.test(name)) return passwordValue(value, true, 3);
    return secretLike(value, 3.2) && /\d/.test(value) && /[A-Za-z]/.test(value) && !notAValue(value);
  },
};

/**
 * Maven's encrypted passwords (`mvn --encrypt-password`, Maven's "Password Encryption"
 * guide): `<password>{COQLCE6DU6GtcS5P=}</password>` in settings.xml, and the master
 * password `<master>{…}</master>` in settings-security.xml, which decrypts them all.
 * Braced base64, so no placeholder or variable reading applies.
 */
export const MAVEN_ENCRYPTED_RULE: GatedSecretRule = {
  kind: "maven_encrypted_password",
  regex: /<(?:password|passphrase|master)>\{[A-Za-z0-9+/]{12,512}={0,2}\\?\}<\//gi,
  keywords: ["password>{", "passphrase>{", "master>{"],
  validate: (m) => secretLike(m.slice(m.indexOf("{") + 1, m.lastIndexOf("}")).replace(/[=\\]+$/, ""), 3.0),
};
