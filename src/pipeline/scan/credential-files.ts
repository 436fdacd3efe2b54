/**
 * Credentials in the line formats of the files that hold them: PostgreSQL's `.pgpass`
 * (`host:port:database:user:password`) and Apache's `.htpasswd` or a shadow file
 * (`user:$apr1$…`, `user:$2y$…`, `user:{SHA}…`, `user:$6$…`), where a password's hash is
 * the credential (it is cracked offline), each opening a line as the files write it; a
 * Terraform variable's default under a credential's name, a Kubernetes environment list's
 * `- name: DB_PASSWORD` / `value: …`, a Dockerfile's `ENV NAME value`, network devices' `password 0 …`,
 * `secret 0 …`, type 7 passwords and SNMP communities, Redis's `requirepass` and `masterauth`, and an ftp script's
 * `user name password`.
 */
import { namedValue } from "./credential-commands.ts";
import { passwordValue } from "./credential-forms.ts";
import { mixedValue } from "./credential-notes.ts";
import type { Detector, GatedSecretRule } from "./detector.ts";
import { machineRandom } from "./randomness.ts";
import { secretLike } from "./validators.ts";

/** Line starts: a host, a user or `*` opens these files' lines. */
const LINE_FIRST = "abcdefghijklmnopqrstuvwxyz0123456789*";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/** A host as `.pgpass` names it: a name, an IPv4 address, `localhost`, or `*` for any. */
const PGPASS_HOST = `(?:${LABEL}(?:\\.${LABEL}){0,6}|\\*)`;

/** The hashes `htpasswd` and `crypt(3)` write: Apache's MD5, bcrypt, SHA-1, and glibc's MD5, SHA-256 and SHA-512. */
const PASSWORD_HASH =
  "(?:\\$apr1\\$[./0-9A-Za-z]{1,8}\\$[./0-9A-Za-z]{22}|\\$2[aby]\\$\\d\\d\\$[./0-9A-Za-z]{53}|\\{SHA\\}[A-Za-z0-9+/]{27}=|\\$[156]\\$(?:rounds=\\d{1,7}\\$)?[./0-9A-Za-z]{1,16}\\$[./0-9A-Za-z]{22,86})";

/** A variable's or setting's name that says credential (`db_password`, `api_token`, `ADMIN_PW`, `STRIPE_SECRET_KEY`). */
const CREDENTIAL_NAME =
  "[\\w.-]{0,60}?(?:password|passwd|pwd|passphrase|secret|token|api_?key|access_?key|private_?key|credentials?|[_.-]pw|[_.-]pat)";

export const CREDENTIAL_FILE_DETECTORS: Detector[] = [
  // Terraform: `variable "db_password" { … default = "…" }`, a default written into the module (a `validation { }` block
  // before the default ends the search, which stays within the block's first 400 characters).
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\bvariable[ \\t]{1,3}"${CREDENTIAL_NAME}\\d{0,3}"[ \\t]{0,3}\\{[^}]{0,400}?\\bdefault[ \\t]{0,3}=[ \\t]{0,3}"[^"\\n]{3,128}"`,
    validate: (m) => namedValue(/"([^"]*)"/.exec(m)?.[1] ?? "", /"[^"\n]*"$/.exec(m)?.[0] ?? ""),
    start: { at: "word", literals: ["variable"] },
  },
  // Kubernetes' and compose-style environment lists: `- name: DB_PASSWORD` with `value: "…"` on the next line (ECS's JSON
  // `{"name": …, "value": …}` is in credential-forms.ts). `valueFrom:` a secret reference is no value. YAML opens a comment
  // at a `#` after a blank only (`value: Xk9#mP2v` is one value). A name ending in `login` (`SONAR_LOGIN`) holds a token
  // only when a machine generated the value: a person's login name is no secret.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\bname:[ \\t]{0,3}["']?(?:${CREDENTIAL_NAME}|[\\w.-]{0,60}?login)\\d{0,3}["']?[ \\t]{0,3}\\r?\\n[ \\t]{1,16}value:[ \\t]{1,3}(?:"[^"\\n]{3,128}"|'[^'\\n]{3,128}'|[^\\s"'#](?:[^\\n#]|(?<![ \\t])#){2,127})`,
    validate: (m) => {
      const [, name = "", value = ""] = /^name:[ \t]*["']?([\w.-]+)["']?[ \t]*\r?\n[ \t]+value:[ \t]+(.*)$/i.exec(m) ?? [];
      if (/^(?:\$|\{)/.test(value)) return false;
      if (/login\d{0,3}$/i.test(name)) return machineRandom(value.trim().replace(/^["']|["']$/g, ""));
      return namedValue(name, value.trimEnd());
    },
    start: { at: "word", literals: ["name:"] },
  },
  // A Dockerfile's `ENV DB_PASSWORD s3cret` (the older form, without `=`; `ENV NAME=value` is an assignment already).
  {
    kind: "password_assignment",
    category: "secret",
    // Dockerfile instructions ignore case (`env` works), and so do the names.
    ignoreCase: true,
    pattern: `\\bENV[ \\t]{1,3}${CREDENTIAL_NAME}\\d{0,3}[ \\t]{1,3}(?:"[^"\\n]{3,128}"|'[^'\\n]{3,128}'|[^\\s"'=][^\\s"']{2,127})(?=[ \\t]*(?:\\r?\\n|$))`,
    validate: (m) => {
      const [, name = "", value = ""] = /^ENV[ \t]+(\S+)[ \t]+(.*)$/i.exec(m) ?? [];
      return !/^(?:\$|\{)/.test(value) && namedValue(name, value);
    },
    start: { at: "word", literals: ["env ", "env\t"] },
  },
  // `db01.corp.example:5432:appdb:app:Wq8zT3pLm2`, `*:*:*:postgres:Tr7bN2qXz`: the port is a number or `*`, so a time or a
  // path with colons is no such line; the password is what its owner typed (unquoted, so code and names do not count).
  {
    kind: "pgpass_password",
    category: "secret",
    pattern: `(?:^|\\n)[ \\t]{0,3}${PGPASS_HOST}:(?:\\d{1,5}|\\*):[^:\\s]{1,63}:[^:\\s]{1,63}:[^\\s]{4,128}(?![^\\s])`,
    validate: (m) => passwordValue(m.slice(m.lastIndexOf(":") + 1), false, 4) && !/^\\d+$/.test(m.slice(m.lastIndexOf(":") + 1)),
    start: { at: "line", first: LINE_FIRST, afterLabel: ".:*" },
  },
  // Network devices' configurations (Cisco IOS and the like): `username ops privilege 15 password 0 …`, `enable secret 0 …`,
  // a type 7 password (`password 7 0822455D0A16`, reversible), and an SNMP community (`snmp-server community … RO`).
  {
    kind: "password_assignment",
    category: "secret",
    pattern: "\\b(?:password|secret)[ \\t]{1,3}[07][ \\t]{1,3}[!#-~]{4,128}(?![!#-~])",
    validate: (m) => {
      const [, type = "", value = ""] = /^\w+[ \t]+([07])[ \t]+(\S+)$/.exec(m) ?? [];
      return type === "7" ? /^(?:[0-9A-F]{2}){3,}$/i.test(value) && secretLike(value, 2.5) : passwordValue(value, false, 6);
    },
    start: { at: "word", literals: ["password 0", "password 7", "secret 0", "secret 7"] },
  },
  {
    kind: "password_assignment",
    category: "secret",
    pattern: "\\bsnmp-server[ \\t]{1,3}community[ \\t]{1,3}[!#-~]{4,64}(?=[ \\t]{1,3}(?:RO|RW|ro|rw|view)\\b)",
    validate: (m) => passwordValue(m.slice(m.lastIndexOf(" ") + 1), false, 6),
    start: { at: "word", literals: ["snmp-server"] },
  },
  // An ftp script's login (`ftp -n host <<EOF` / `user deploy …`): the ftp client's `user name password` command, a whole
  // line of three words, the last looking chosen (`user guide for admins` is a sentence).
  {
    kind: "password_assignment",
    category: "secret",
    pattern: `(?:^|\\n)[ \\t]{0,3}user[ \\t]{1,3}[A-Za-z0-9][\\w.@-]{0,63}[ \\t]{1,3}[!#-~]{6,64}(?=[ \\t]*(?:\\r?\\n|$))`,
    validate: (m) => {
      const [, user = "", password = ""] = /user[ \t]+(\S+)[ \t]+(\S+)$/.exec(m.trimEnd()) ?? [];
      return password !== user && mixedValue(password);
    },
    start: { at: "line", first: "u" },
  },
  // Redis's configuration: `requirepass …`, `masterauth …` (the primary's password on a replica).
  {
    kind: "password_assignment",
    category: "secret",
    pattern: `(?:^|\\n)[ \\t]{0,3}(?:requirepass|masterauth)[ \\t]{1,3}(?:"[^"\\n]{3,128}"|[^\\s"]{3,128})(?=[ \\t]*(?:\\r?\\n|$))`,
    validate: (m) => {
      const value = m.trim().replace(/^\w+[ \t]+/, "");
      return passwordValue(value.replace(/^"|"$/g, ""), value.startsWith('"'), 6);
    },
    start: { at: "line", first: "rm" },
  },
];

/**
 * `admin:$apr1$Zq7xN3pL$w9Vb…`, `root:$6$salt$…:19700:0:99999:7:::`: a user and a password's hash, opening a line, random
 * after its scheme. Gated by the scheme's marker (`$apr1$`, `$2y$`, `{SHA}`, `$6$`), which ordinary text hardly writes.
 */
export const PASSWORD_HASH_RULE: GatedSecretRule = {
  kind: "password_hash",
  regex: new RegExp(`(?:^|\\n)[ \\t]{0,3}[A-Za-z0-9_.@-]{1,64}:${PASSWORD_HASH}(?![./0-9A-Za-z+=])`, "g"),
  keywords: ["$apr1$", "$2a$", "$2b$", "$2y$", "{SHA}", "$1$", "$5$", "$6$"],
  validate: (m) => secretLike(m.slice(m.lastIndexOf("$") + 1 || m.indexOf("}") + 1), 3.0),
};
