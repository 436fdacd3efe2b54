/**
 * Passwords told the way chat and notes tell them, with no sign to assign them: after the
 * word itself (`password Qx7pLm2R9`, `Password - Qx7pLm2R9`), after what the password is
 * for (`the admin password for the staging box is …`, `set the password to …`), a user
 * and a password after a label (`ID/PW : admin / …`, `Credentials: admin/…`, `Login:ops/…`,
 * `telnet(ops/…)`, `계정:ops,…`), an administrator's default pair (`root/…`, `admin//…`), and a bare
 * `Bearer` token. No name vouches for the value, so it must look chosen or generated
 * (credential-notes.ts `mixedValue`): `password manager`, `password reset`, `password to
 * something strong` are sentences.
 */
import { chosenPassword, mixedValue } from "./credential-notes.ts";
import { type Detector, NOT_AFTER_LETTER } from "./detector.ts";
import { secretLike } from "./validators.ts";

/** A value as prose writes it: up to a blank, a quote or the end of a sentence. */
const PROSE_VALUE = `["'“]?[!#-&(-~]{6,64}`;
/** The value with its quotes and the sentence's closing punctuation taken off. */
const bare = (v: string) => v.replace(/^["'“]/, "").replace(/["'”]?[.,;:!?)]*$/, "");

/** Labels that open a user and a password written as a pair. */
const PAIR_LABELS = [
  "id/pw",
  "id/pass",
  "id/password",
  "user/pass",
  "user/password",
  "username/password",
  "creds",
  "credentials",
  "login/password",
  "account",
];

/** Labels of a login written as `label:user/password`: the sign is required, since `login page/v2…` is a sentence. */
const LOGIN_LABELS = ["login", "logon", "telnet", "ssh", "sftp", "ftp", "rdp", "vnc"];
/** The same in Korean (account, ID, password), the notes' language of the fixtures that showed the form. */
const LOGIN_LABELS_HANGUL = ["계정", "아이디", "비밀번호", "패스워드", "비번"];
/** Administrators' user names, written before their password as a default pair (`root/…`, `admin//…`, `sa/…`). */
const ADMIN_USERS = ["root", "admin", "administrator", "sa"];

/** A user and a password written as a pair, split at its separator: the password differs from the user and looks chosen. */
function pairHolds(rest: string, separator: RegExp): boolean {
  const sep = separator.exec(rest);
  if (!sep) return false;
  const user = rest.slice(0, sep.index);
  const password = bare(rest.slice(sep.index + sep[0].length));
  return password !== user && mixedValue(password);
}

/**
 * After a login's label: its sign, a user, a slash (or two) or a comma, a password; or, with no sign, a user and a
 * slash with blanks on both sides (`login admin / Qx7…`), which a sentence's `login page/v2` does not write.
 */
const USER = "[A-Za-z0-9][\\w.@-]{0,63}";
const LOGIN_PAIR = `(?:[ \\t]{0,3}[:=(\\]][ \\t]{0,3}${USER}[ \\t]{0,3}(?:/{1,2}|,)|[ \\t]{1,3}${USER}[ \\t]{1,3}/{1,2})[ \\t]{0,3}${PROSE_VALUE}`;
const loginPair = (m: string) => pairHolds(m.replace(/^(?:[^:=(\]\s]+[ \t]*[:=(\]]|[^:=(\]\s]+)[ \t]*/, ""), /[ \t]*(?:\/{1,2}|,)[ \t]*/);

export const CREDENTIAL_PROSE_DETECTORS: Detector[] = [
  // `password Qx7pLm2R9`, `passwd: …` is an assignment already; `Password - …`, `password -> …`, `pwd Qx7…`.
  {
    kind: "password_in_prose",
    category: "secret",
    ignoreCase: true,
    // Unquoted: "the new password 'Tr0ub4dor&3' meets the policy" discusses an example. A declaration's type
    // (Go's `var password string = …`) is the assignment's to read.
    pattern: `\\b(?:password|passwd|pwd)[ \\t]{1,3}(?!(?:string|str|securestring)[ \\t]{0,3}=)(?:(?:-{1,2}>?|–|—|=>|->)[ \\t]{1,3})?[!#-&(-~]{6,64}`,
    validate: (m) => mixedValue(bare(m.replace(/^\w+[ \t]+(?:(?:-{1,2}>?|–|—|=>|->)[ \t]+)?/, ""))),
    // Rejected, the scan resumes at the value, which may be a credential of a known kind.
    valueAfter: /^\w+[ \t]+(?:(?:-{1,2}>?|–|—|=>|->)[ \t]+)?/,
  },
  // `the admin password for the staging box is Qx7…`, `set the password to Qx7…`, `the root password on db01: Qx7…`.
  {
    kind: "password_in_prose",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:password|passwd|passcode)(?:[ \\t]{1,3}(?:for|of|on|at)[ \\t]{1,3}[^\\n:=.]{1,48}?)?[ \\t]{1,3}(?:is|was|to|will be|:)[ \\t]{1,3}${PROSE_VALUE}`,
    // After `is` or `was`, as right after the word (`my password is sommer2023`, credential-forms.ts), a chosen password of
    // letters and digits counts; after `to` or a colon, the sentence may go on (`set the password to something2 strong`).
    validate: (m) => {
      const value = bare(/\S+$/.exec(m)?.[0] ?? "");
      return mixedValue(value) || (/[ \t](?:is|was)[ \t]+\S+$/i.test(m) && chosenPassword(value));
    },
    valueAfter: /^[\s\S]*?[ \t](?:is|was|to|will be|:)[ \t]+/i,
  },
  // `ID/PW : admin / Qx7…`, `Credentials: admin/Qx7…!`, `creds - ops / Qx7…`: a user and a password after a label.
  {
    kind: "address_user_password",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:${PAIR_LABELS.map((l) => l.replace("/", "\\/")).join("|")})[ \\t]{0,3}[:=-]?[ \\t]{0,3}[A-Za-z0-9][\\w.@-]{0,63}[ \\t]{0,3}[/:][ \\t]{0,3}${PROSE_VALUE}`,
    validate: (m) => {
      const rest = m.replace(/^[\w/]+[ \t]*[:=-]?[ \t]*/, "");
      const sep = /[ \t]*[/:][ \t]*/.exec(rest);
      if (!sep) return false;
      const user = rest.slice(0, sep.index);
      const password = bare(rest.slice(sep.index + sep[0].length));
      // A label that names the pair, with its sign (`ID/PW : admin / admin1234`, `creds: ops:summer2023`), vouches as
      // `password: …` does: a chosen password of letters and digits counts. An account is as often a repository's owner.
      const named = /^[\w/]+[ \t]*[:=]/.test(m) && !/^account/i.test(m) && chosenPassword(password);
      return password !== user && (mixedValue(password) || named);
    },
    start: { at: "word", literals: PAIR_LABELS.map((l) => l.slice(0, Math.max(3, l.indexOf("/") + 1 || l.length))) },
  },
  // `Login:ops/Qx7…!`, `telnet(ops/Qx7…!)`, `ssh: deploy, Qx7…!`: a user and a password after a login's label.
  {
    kind: "address_user_password",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:${LOGIN_LABELS.join("|")})${LOGIN_PAIR}`,
    validate: loginPair,
    start: { at: "word", literals: LOGIN_LABELS },
  },
  // `계정:gildong.hong,Qx7…!`, `비밀번호]ops/Qx7…`: the same in Korean.
  {
    kind: "address_user_password",
    category: "secret",
    pattern: `${NOT_AFTER_LETTER}(?:${LOGIN_LABELS_HANGUL.join("|")})${LOGIN_PAIR}`,
    validate: loginPair,
    start: { at: "literal", literals: LOGIN_LABELS_HANGUL },
  },
  // `root/Qx7…!`, `admin//Qx7…!`, `sa/Qx7…!`: an administrator's pair; a path (`/root/…`, `src/admin/…`) has a slash before it.
  {
    kind: "address_user_password",
    category: "secret",
    ignoreCase: true,
    pattern: `(?<![\\w./\\\\-])(?:${ADMIN_USERS.join("|")})/{1,2}[!#-&(-.0-~]{6,64}(?![!#-~])`,
    validate: (m) => {
      const password = bare(m.replace(/^\w+\/+/, ""));
      // A route or a file (`admin/Settings2`, `root/Build64`): a password that is a capitalized word and digits is not taken.
      return !/^[A-Z][a-z]+\d+$/.test(password) && pairHolds(m, /\/{1,2}/);
    },
    start: { at: "word", literals: ADMIN_USERS.map((u) => `${u}/`) },
  },
  // A `Bearer` token outside an Authorization header (`use Bearer eyJ…`, `token type Bearer 7f3a…` in a note), its
  // scheme sometimes written as a label (`"Bearer: 7f3a…"`).
  {
    kind: "authorization_header",
    category: "secret",
    // Folding case puts it in the pass of the header rule, which it then never overlaps; a vendor's token inside keeps its name.
    ignoreCase: true,
    pattern: "\\bBearer:?[ \\t]{1,3}[A-Za-z0-9._~+/-]{20,2048}={0,2}(?![A-Za-z0-9._~+/=-])",
    validate: (m) => {
      const token = m.replace(/^Bearer:?[ \t]+/i, "");
      return /\d/.test(token) && /[A-Za-z]/.test(token) && secretLike(token, 3.2);
    },
    valueAfter: /^Bearer:?[ \t]+/i,
  },
];
