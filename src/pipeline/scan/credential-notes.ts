/**
 * Credentials written the way people note them down rather than configure them: an
 * address or a host name, a user and a password side by side (`192.168.0.1 admin/Pa55_word`,
 * `db01.corp.example:5432 admin / S3cr3t!x`), a token after a label of two words (`Session Token AIhq5Xyb1Gga9Q18`), a password under
 * its name in another language (`비밀번호 : …`, `パスワード：…`, `Passwort: …`, `PW: …`), `user:pass@host`
 * without a scheme, and `-u user:pass` on any command line. No sign or name vouches for
 * the value here, so it must look chosen or generated: letters with digits and a
 * second case or a symbol; words, identifiers, interface names and MAC addresses do not.
 */
import { passwordValue } from "./credential-forms.ts";
import { type Detector, NOT_AFTER_LETTER } from "./detector.ts";
import { looksLikePlaceholder, secretLike } from "./validators.ts";

/** A value no one would take for anything but a password or a token: a digit, a letter, and a second case or a symbol. */
export function mixedValue(v: string): boolean {
  if (!/\d/.test(v) || !/[A-Za-z]/.test(v)) return false;
  // Hex with separators is a MAC address, a hash or an id; a dotted run of words a host or a member.
  if (/^[0-9a-f:._-]+$/i.test(v) || /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i.test(v)) return false;
  const cases = /[a-z]/.test(v) && /[A-Z]/.test(v);
  const symbol = /[^A-Za-z0-9./:-]/.test(v);
  return (cases || symbol) && !looksLikePlaceholder(v) && passwordValue(v, false, 6);
}

/**
 * A password a person chose, under a label that names it with a sign (`Passwort: sommer2023`, `PW: qwerty123`,
 * `비밀번호: qwer1234`): eight characters or more, letters and digits, judged as English's `password: …` is in
 * assignments.ts (a word, a variable, a placeholder does not count). Hex, MAC addresses and dotted names stay out.
 */
export function chosenPassword(v: string): boolean {
  if (v.length < 8 || !/\d/.test(v) || !/[A-Za-z]/.test(v)) return false;
  if (/^[0-9a-f:._-]+$/i.test(v) || /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i.test(v)) return false;
  return !looksLikePlaceholder(v) && passwordValue(v, false, 8);
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
/** A host name ends in a top-level domain of letters; a file name (`app.module.ts`, `jquery.min.js`) in an extension. */
const HOST_END = /\.[A-Za-z]{2,24}$/;
const FILE_END =
  /\.(?:ts|tsx|js|jsx|mjs|cjs|py|rb|go|rs|java|kt|cs|cpp|h|hpp|php|json|ya?ml|toml|ini|cfg|conf|md|txt|html?|css|scss|sh|ps1|bat|sql|xml|csv|log|lock|env|tf|vue|svelte|swift|dart|scala|gradle|properties|pem|crt|key|pub|zip|gz|tar|png|jpg|svg|pdf|exe|dll|so|bin)$/i;
/** A label of a host name: letters, digits and inner hyphens. */
const HOST_NAME = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?";

/** Labels that stand before an e-mail address (`Email:alice@corp.com`), not a user before a password. */
const ADDRESS_LABEL =
  /^(?:e-?mail|mail|mailto|from|to|cc|bcc|reply-to|sender|recipient|contact|author|user|login|username|by|re|fwd|tel|sip|sips|xmpp|owner|maintainer|committer|email_address)$/i;

/** Labels of two words naming a token or key in prose: `Session Token`, `API key`, `Authentication key`. */
const LABEL_FIRST = [
  "session",
  "access",
  "auth",
  "authentication",
  "authorization",
  "api",
  "secret",
  "private",
  "refresh",
  "bearer",
  "client",
  "bot",
];

/** "Password" in the languages of the supported locales and of the teams that write such notes, in the cases they are written. */
const PASSWORD_WORDS = [
  "비밀번호",
  "패스워드",
  "비번",
  "암호",
  "パスワード",
  "密码",
  "密碼",
  "口令",
  "пароль",
  "Пароль",
  "ПАРОЛЬ",
  "كلمة المرور",
  "पासवर्ड",
];
/** The same in Latin script, any case; and the short forms of notes (`PW:`, `P/W:`). */
const LATIN_PASSWORD_WORDS = [
  "passwort",
  "kennwort",
  "wachtwoord",
  "mot de passe",
  "contraseña",
  "contrasena",
  "senha",
  "lösenord",
  "losenord",
  "salasana",
  "adgangskode",
  "pw",
  "p/w",
];
/** A value after such a label: printable ASCII up to a blank or a quote (a password of letters of another script is rare; prose in it is not). */
const NOTE_VALUE = `["'「“]?[!#-&(-~]{6,64}`;
/** A label's value must look chosen or generated (`pw = ConvertTo-SecureString …` is code, `Passwort: geheim` a word). */
const labeledPassword = (m: string, label: RegExp) => {
  const v = m
    .replace(label, "")
    .replace(/^["'「“]/, "")
    .replace(/[.,;:!?]+$/, "");
  return mixedValue(v) || chosenPassword(v);
};

export const CREDENTIAL_NOTE_DETECTORS: Detector[] = [
  // `비밀번호 : Xq7…`, `パスワード：…`, `密码: …`, `пароль = …`, `비밀번호는 …` (Korean's "is"): a password under its name in another script.
  {
    kind: "password_assignment",
    category: "secret",
    pattern: `${NOT_AFTER_LETTER}(?:${PASSWORD_WORDS.join("|")})[ \\t]{0,3}(?:[:=：]|은|는|は|是|为|為)[ \\t]{0,3}${NOTE_VALUE}`,
    validate: (m) => labeledPassword(m, /^[^:=：은는は是为為]+(?:[:=：]|은|는|は|是|为|為)[ \t]*/),
    start: { at: "literal", literals: PASSWORD_WORDS },
    // Rejected, the scan resumes at the value, which may be a credential of a known kind.
    valueAfter: /(?:[:=：]|은|는|は|是|为|為)[ \t]*/,
  },
  // `Passwort: …`, `mot de passe : …`, `senha: …`, `PW: …`, `P/W : …`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:${LATIN_PASSWORD_WORDS.join("|")})[ \\t]{0,3}[:=][ \\t]{0,3}${NOTE_VALUE}`,
    validate: (m) => labeledPassword(m, /^[^:=]+[:=][ \t]*/),
    // `pw` is two letters: its literals carry what follows (a word literal has three characters at least).
    start: {
      at: "word",
      literals: [
        "passwort",
        "kennwort",
        "wachtwoord",
        "mot de passe",
        "contrase",
        "senha",
        "lösenord",
        "losenord",
        "salasana",
        "adgangskode",
        "pw:",
        "pw ",
        "pw=",
        "p/w",
      ],
    },
    valueAfter: /[:=][ \t]*/,
  },
  // `192.168.0.1 master/iP30dT_o`, `IP/ID/PW 10.0.0.7/admin/Pa55_word`, `10.1.2.3:22, root, S3cret!x`: an address, a user, a password.
  {
    kind: "address_user_password",
    category: "secret",
    pattern: `\\b${IPV4}(?::\\d{1,5})?[ \\t,;/|]{1,3}[A-Za-z][\\w.@-]{0,31}[ \\t,;/|:]{1,3}[A-Za-z0-9][^\\s,;|"'<>]{5,63}(?![^\\s,;|"'<>])`,
    validate: (m) => {
      const parts = m.split(/[ \t,;/|:]+/);
      const password = parts.at(-1) ?? "";
      const user = parts.at(-2) ?? "";
      return password !== user && mixedValue(password);
    },
    start: { at: "digit-word" },
    // Rejected, the scan resumes after the address: a phone number or an e-mail may follow it.
    valueAfter: /^[\d.]+(?::\d+)?/,
  },
  // `db01.corp.example:5432 admin / S3cr3t!x`, `vpn.corp.example, ops, Gr33n!Tea`: a host name, a user, a password, opening a
  // line as notes write them. A host is a name of three labels or more, or of two with a port (`index.html`, `main.ts` are
  // files), and a blank, a comma or a bar follows it (`docs.python.org/3/library` is a path).
  {
    kind: "address_user_password",
    category: "secret",
    pattern: `(?:^|\\n)[ \\t]{0,3}(?:${HOST_NAME}(?:\\.${HOST_NAME}){2,5}(?::\\d{1,5})?|${HOST_NAME}\\.${HOST_NAME}:\\d{1,5})(?:[ \\t]{1,3}|[ \\t]{0,3}[,;|][ \\t]{0,3})[A-Za-z][\\w.@-]{0,31}[ \\t]{0,3}[ \\t,;/|:][ \\t]{0,3}[A-Za-z0-9][^\\s,;|"'<>]{5,63}(?![^\\s,;|"'<>])`,
    validate: (m) => {
      const parts = m.trim().split(/[ \t,;/|:]+/);
      const password = parts.at(-1) ?? "";
      const user = parts.at(-2) ?? "";
      const host = m.trim().split(/[:\s,;|]/)[0] ?? "";
      // Three words after a host with blanks alone between them are a sentence (`api.github.com returns JSON2x`) unless a port says address.
      const blanksOnly = (
        m
          .trim()
          .slice(host.length)
          .match(/[ \t,;/|:]+/g) ?? []
      ).every((sep) => /^[ \t]+$/.test(sep));
      return HOST_END.test(host) && !FILE_END.test(host) && !blanksOnly && password !== user && mixedValue(password);
    },
    start: { at: "line", first: "abcdefghijklmnopqrstuvwxyz", afterLabel: "." },
  },
  // `Session Token AIhq5Xyb1Gga9Q18`, `Authentication key:AIhq…`, `the API key is Xq7Lm2Rk9XwT`: a token after a label of two words.
  {
    // A generic assignment in prose: a vendor's own rule that names the same value wins (engine.ts).
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:${LABEL_FIRST.join("|")})[ _-](?:token|key)[ \\t]{0,3}(?:is[ \\t]{1,3}|[:=][ \\t]{0,3}|[ \\t])["'\`]?[A-Za-z0-9+/_~.=-]{12,256}(?![A-Za-z0-9+/_~.=-])`,
    validate: (m) => {
      const value = m.replace(/^\w+[ \t_-]\w+[ \t]*(?:is[ \t]+|[:=][ \t]*|[ \t])["'`]?/i, "");
      // A camelCase or PascalCase name with a number (`GetTokenAsync2`) is code, not a token.
      if (/^[A-Za-z][a-z]+(?:[A-Z][a-z]+)*\d*$/.test(value)) return false;
      // Many APIs issue their keys as hex (`API key = 7f3a9c1e…`): 32 digits or more of one case, with letters and digits.
      if (/^(?:[0-9a-f]{32,128}|[0-9A-F]{32,128})$/.test(value))
        return /\d/.test(value) && /[a-fA-F]/.test(value) && secretLike(value, 3.0);
      return /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && secretLike(value, 3.0);
    },
    // Opened at the whole label: its first words alone (`api`, `access`, `client`) start too often in chat.
    start: { at: "word", literals: LABEL_FIRST.flatMap((w) => [" ", "_", "-"].flatMap((sep) => [`${w}${sep}token`, `${w}${sep}key`])) },
    // Rejected, the scan resumes at the value, which may be a credential of a known kind (`API key AKIA…`).
    valueAfter: /(?:is[ \t]+|[:=][ \t]*|[ \t])["'`]?(?=[^ \t]*$)/i,
  },
  // `admin:Gr33n!Tea@10.0.0.5`, `ssh deploy:Xq7Lm2Rk@build.corp.net`: a user and a password before a host, without a scheme.
  {
    kind: "url_credentials",
    category: "secret",
    // Go's MySQL DSN names the protocol where a host would be (`app:…@tcp(db01:3306)/shop`); Oracle's clients write the
    // user and password with a slash (`scott/…@db01:1521/ORCL`), taken with a port only (`team/Alice2@corp.com` is an address).
    pattern: `(?:(?<![\\w.:/@%+~-])|(?<=:thin:))[A-Za-z][\\w.+-]{0,31}(?::[^\\s:/@"'<>]{3,31}@(?:(?:${IPV4}|localhost|[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){1,6})(?![\\w-]|\\.\\w)|(?:tcp|unix)\\()|/[^\\s:/@"'<>]{3,31}@(?:${IPV4}|[A-Za-z][A-Za-z0-9-]{0,62}(?:\\.[A-Za-z0-9-]{1,63}){0,6}):\\d{2,5}(?!\\d))`,
    validate: (m) => {
      const colon = /[:/]/.exec(m)?.index ?? 0;
      const user = m.slice(0, colon);
      const password = m.slice(colon + 1, m.lastIndexOf("@"));
      return !ADDRESS_LABEL.test(user) && password !== user && mixedValue(password);
    },
    start: { at: "before-at" },
    // Rejected (`call:jane.doe@corp.example`), the scan resumes after the colon, where an e-mail address may start.
    valueAfter: /[:/]/,
  },
  // `-u deploy:Xq7Lm2Rk`, `--user=ops:Gr33n!Tea`, `--auth admin:S3cret!x` (httpie, wget, CLIs): curl's form, any command.
  {
    kind: "command_line_secret",
    category: "secret",
    pattern: `(?<![\\w-])(?:-u|--user|--auth)(?:=|[ \\t]{1,3})["']?[A-Za-z0-9_.@-]{1,64}:["']?[^\\s"':]{6,128}`,
    validate: (m) => {
      const pair = m.replace(/^-+\w+(?:=|[ \t]+)["']?/, "");
      const colon = pair.indexOf(":");
      const password = pair.slice(colon + 1).replace(/^["']/, "");
      return password !== pair.slice(0, colon) && mixedValue(password);
    },
    start: { at: "literal", literals: ["-u", "--user", "--auth"] },
    valueAfter: /^-+\w+(?:=|[ \t]+)/,
  },
];
