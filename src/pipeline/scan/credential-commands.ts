/**
 * Passwords handed to a tool rather than assigned: database clients' and registries'
 * short flags (`mysql -pS3cret`, `docker login -p …`, `redis-cli -a …`, `ldapsearch -w …`,
 * `keytool -storepass …`, `pscp -pw …`, `smbclient -U user%…`, `htpasswd -b`), `sshpass -p`,
 * `net use … /user:x pass`, `net user x pass`, a password piped into `docker login
 * --password-stdin` or `chpasswd`, SQL's `IDENTIFIED BY '…'` and `WITH PASSWORD '…'`, login
 * and connection calls with a literal user and password (`smtp.login('ops', '…')`,
 * `mysqli_connect(h, "root", "…")`), secrets' setters (`cfg.setSecret("…")`), signing keys written
 * into the call (`jwt.encode(p, "…")`, `hmac.new(b"…")`) and `#define`d credentials. A
 * short flag means a password only after the tool that reads it so (`-p 8080` is a port
 * elsewhere).
 */
import { NOT_A_CREDENTIAL_KEY } from "./assignments.ts";
import { basicCredential, notAValue, passwordValue } from "./credential-forms.ts";
import type { Detector } from "./detector.ts";
import { machineRandom } from "./randomness.ts";
import { secretLike } from "./validators.ts";

/** Base64's text, or nothing when it is none. */
function decodedText(value: string): string {
  const text = Buffer.from(value, "base64").toString("utf8");
  return /^[\x20-\x7e]+$/.test(text) ? text : "";
}

/** A value set under a credential's name: a chosen password by that name, otherwise a token that looks generated. */
export function namedValue(name: string, raw: string): boolean {
  if (/pass/i.test(name)) return flagValue(raw);
  if (NOT_A_CREDENTIAL_KEY.test(name.trim())) return false;
  const v = raw.replace(/^["']/, "").replace(/["']$/, "");
  return /\d/.test(v) && /[A-Za-z]/.test(v) && !notAValue(v) && secretLike(v, 3.2);
}

/** A flag's value: quoted, any real password; bare, one with two kinds of character at least (a port or a word is not). */
function flagValue(raw: string): boolean {
  const quoted = /^["']/.test(raw);
  return passwordValue(raw.replace(/^["']/, "").replace(/["']$/, ""), quoted, quoted ? 3 : 6);
}

/** The tools whose password flag is short, each with its flag: `-p` (attached or not), `-a`, `-w`, `-storepass`. */
const TOOL_FLAGS = [
  // mysql reads `-p` alone as "ask me", and the word after it as the database: only an attached value is a password.
  "(?:mysql(?:dump|admin|import|sh)?|mariadb(?:-dump)?)\\b[^\\n|;&]{0,160}?[ \\t]-p(?=[^\\s-])",
  "(?:mongo(?:sh|dump|restore|export|import)?|sshpass|(?:docker|podman|buildah|skopeo|nerdctl|oras) login)\\b[^\\n|;&]{0,160}?[ \\t]-p(?:[ \\t]{1,3}|(?=[^\\s-]))",
  "redis-cli\\b[^\\n|;&]{0,160}?[ \\t]-a[ \\t]{1,3}",
  "ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)\\b[^\\n|;&]{0,160}?[ \\t]-w[ \\t]{1,3}",
  "(?:keytool|jarsigner)\\b[^\\n|;&]{0,200}?[ \\t]-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass)[ \\t]{1,3}",
  "net use\\b[^\\n|;&]{0,160}?/user:[^\\s]{1,64}[ \\t]{1,3}",
  // PuTTY's tools (`pscp -pw …`), Samba's `-U user%password`, Windows' `net user name password`, `htpasswd -b file user password`.
  "(?:pscp|plink|psftp)\\b[^\\n|;&]{0,160}?[ \\t]-pw[ \\t]{1,3}",
  "(?:smbclient|rpcclient|smbmap)\\b[^\\n|;&]{0,160}?[ \\t](?:-U|--user=?)[ \\t]{0,3}[^\\s%]{1,64}%",
  "net user[ \\t]{1,3}[^\\s/]{1,64}[ \\t]{1,3}(?=[^\\s/*])",
  // Azure's CLI (`az login -u … -p …`, `az sql server create -u … -p …`), SQL Server's `sqlcmd`/`bcp -P`, archives' passwords (`zip -P`),
  // `ssh-keygen -N` (a new key's passphrase), `openssl enc -k`, ngrok's `config add-authtoken`.
  "az (?:login|(?:sql|postgres|mysql|mariadb) server (?:create|update))\\b[^\\n|;&]{0,160}?[ \\t]-p[ \\t]{1,3}",
  "(?:sqlcmd|bcp|osql)\\b[^\\n|;&]{0,200}?[ \\t]-P[ \\t]{0,3}",
  "(?:zip|unzip|zipcloak)\\b[^\\n|;&]{0,160}?[ \\t]-P[ \\t]{1,3}",
  // A scheduled task's run-as password follows `/RP`.
  "schtasks\\b[^\\n|;&]{0,240}?[ \\t]/RP[ \\t]{1,3}",
  "ssh-keygen\\b[^\\n|;&]{0,160}?[ \\t]-N[ \\t]{1,3}",
  "openssl\\b[^\\n|;&]{0,200}?[ \\t]-k[ \\t]{1,3}",
  "ngrok(?:[ \\t]{1,3}config)?[ \\t]{1,3}add-authtoken[ \\t]{1,3}",
  "htpasswd(?:[ \\t]{1,3}-[A-Za-z]{1,4}){0,2}[ \\t]{1,3}-[A-Za-z]{0,4}b[A-Za-z]{0,4}[ \\t]{1,3}(?:[^\\s-][^\\s]{0,200}[ \\t]{1,3}){1,2}",
  // Remote desktops and Sysinternals (`xfreerdp /p:…`, `rdesktop -p …`, `psexec -p …`), RabbitMQ's users
  // (`rabbitmqctl add_user ops …`, `change_password ops …`), `usermod -p '…'` (an already-hashed value is a hash, still secret).
  "xfreerdp\\b[^\\n|;&]{0,200}?[ \\t][/-]p:",
  "(?:rdesktop|psexec(?:64)?|paexec)\\b[^\\n|;&]{0,200}?[ \\t]-p[ \\t]{1,3}",
  "rabbitmqctl[ \\t]{1,3}(?:add_user|change_password)[ \\t]{1,3}[^\\s]{1,64}[ \\t]{1,3}",
  "usermod\\b[^\\n|;&]{0,160}?[ \\t]-p[ \\t]{1,3}",
].join("|");

/** What a getter's name says it returns (`getSecret`, `get_password`, `getApiKey`), as the start literals read them. */
const GETTER_NAMES = [
  "secret",
  "password",
  "passwd",
  "token",
  "api_?key",
  "access_?key",
  "secret_?key",
  "private_?key",
  "credentials?",
  "auth_?token",
];

/** The value after the flag: quoted, or a run without blanks. */
const FLAG_VALUE = `(?:"[^"\\n]{3,128}"|'[^'\\n]{3,128}'|[^\\s"'\`<>|;&-][^\\s"'\`<>|;&]{2,127})`;

export const CREDENTIAL_COMMAND_DETECTORS: Detector[] = [
  {
    kind: "command_line_secret",
    category: "secret",
    pattern: `\\b(?:${TOOL_FLAGS})${FLAG_VALUE}`,
    // An attached value (`-pS3cret`, `/p:S3cret`) is read without its flag.
    validate: (m) => flagValue((/(?:"[^"\n]*"|'[^'\n]*'|[^\s"']+)$/.exec(m)?.[0] ?? "").replace(/^(?:[/-]p:|-p(?=[^\s"']))/, "")),
    start: {
      at: "word",
      // The tools' names with what follows when it is a common word (`docker login`, `net use`).
      literals: [
        "mysql",
        "mariadb",
        "mongo",
        "sshpass",
        "docker login",
        "podman login",
        "buildah login",
        "skopeo login",
        "nerdctl login",
        "oras login",
        "redis-cli",
        "ldap",
        "keytool",
        "jarsigner",
        "net use",
        "pscp",
        "plink",
        "psftp",
        "smbclient",
        "rpcclient",
        "smbmap",
        "net user",
        "htpasswd",
        "az login",
        "az sql",
        "az postgres",
        "az mysql",
        "az mariadb",
        "schtasks",
        "sqlcmd",
        "bcp",
        "osql",
        "zip",
        "unzip",
        "zipcloak",
        "ssh-keygen",
        "openssl",
        "ngrok",
        "xfreerdp",
        "rdesktop",
        "psexec",
        "paexec",
        "rabbitmqctl",
        "usermod",
      ],
    },
  },
  // A setting given as a name and a value without a sign: `aws configure set aws_secret_access_key …`, fish's
  // `set -gx OPENAI_TOKEN …`, `yarn config set npmAuthToken …`, `git config user.password …`, `gh secret set X --body …`.
  {
    kind: "command_line_secret",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:config(?:ure)? set |config --global (?:set )?|config (?=user\\.)|set -[a-z]{1,3} |setx |secret set )["']?[\\w./:@-]{0,60}?(?:password|passwd|secret|token|[_.-]key|apikey)["']?(?:[ \\t]{1,3}(?:--body|-b))?[ \\t]{1,3}${FLAG_VALUE}`,
    validate: (m) => {
      const value = /(?:"[^"\n]*"|'[^'\n]*'|[^\s"']+)$/.exec(m)?.[0] ?? "";
      const name = m.slice(0, m.length - value.length);
      return namedValue(name.replace(/(?:--body|-b)?[ \t]*$/, ""), value);
    },
    // Opened at the command's words, not at `set` or `config` alone, which prose uses all the time.
    start: { at: "word", literals: ["config set ", "configure set ", "config --global ", "config user.", "set -", "setx ", "secret set "] },
  },
  // A password piped into the tool that reads it: `echo "…" | docker login -u ops --password-stdin`, `echo 'ops:…' | chpasswd`,
  // `echo '…' | sudo -S …` (sudo's `-S` reads the password from standard input).
  {
    kind: "command_line_secret",
    category: "secret",
    pattern: `\\becho[ \\t]{1,3}(?:-n[ \\t]{1,3})?(?:"[^"\\n]{3,128}"|'[^'\\n]{3,128}'|[^\\s"'|$]{3,128})[ \\t]{0,3}\\|[ \\t]{0,3}(?:sudo[ \\t]{1,3})?(?:(?:docker|podman|helm|nerdctl|oras|buildah|skopeo)[ \\t]{1,3}(?:registry[ \\t]{1,3})?login\\b[^\\n|;&]{0,200}?--password-stdin|chpasswd|sudo[ \\t]{1,3}(?:-[A-Za-z]{1,3}[ \\t]{1,3})?-[A-Za-z]{0,3}S)`,
    validate: (m) => {
      const raw = /^echo[ \t]+(?:-n[ \t]+)?("[^"\n]*"|'[^'\n]*'|[^\s"'|]+)/.exec(m)?.[1] ?? "";
      // chpasswd reads `user:password` lines.
      if (/chpasswd$/.test(m) && !/^["']?[^:\s]{1,64}:/.test(raw)) return false;
      const value = /chpasswd$/.test(m) ? raw.replace(/^(["']?)[^:]*:/, "$1") : raw;
      // Into `sudo -S` goes a login password: a plain word quoted (`echo "hello" | sudo -S true`) is a test, not one.
      if (/S$/.test(m)) return passwordValue(value.replace(/^["']|["']$/g, ""), false, 6);
      return flagValue(value);
    },
    start: { at: "word", literals: ["echo"] },
  },
  // npm's and yarn's registry credentials (`.npmrc`): `//registry.corp.net/:_authToken=…`, `:_password=…`, `:_auth=…`.
  {
    kind: "password_assignment",
    category: "secret",
    pattern: `:_(?:authToken|auth|password)[ \\t]{0,3}=[ \\t]{0,3}["']?[A-Za-z0-9+/=_.~-]{12,512}`,
    validate: (m) => namedValue("token", m.replace(/^[^=]*=[ \t]*/, "")),
    start: { at: "literal", literals: [":_auth", ":_password"] },
  },
  // A global `.npmrc`'s or `.yarnrc`'s `_auth=` (base64 of `user:password`) and `_password=` (base64 of the password).
  {
    kind: "password_assignment",
    category: "secret",
    pattern: `(?<![\\w:-])_(?:auth|password)[ \\t]{0,3}=[ \\t]{0,3}["']?[A-Za-z0-9+/]{8,512}={0,2}`,
    validate: (m) => {
      const value = m.replace(/^[^=]*=[ \t]*["']?/, "");
      return m.startsWith("_auth") ? basicCredential(value) : namedValue("token", value) || namedValue("password", decodedText(value));
    },
    start: { at: "word", literals: ["_auth", "_password"] },
  },
  // SQL: `CREATE USER … IDENTIFIED BY '…'`, `ALTER ROLE … WITH [ENCRYPTED] PASSWORD '…'`, `SET PASSWORD … = '…'` aside (an assignment).
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    // `password '…'` only after SQL's WITH: in prose, "the password 'P@ssw0rd!'" is an example being discussed.
    // PostgreSQL leaves out the WITH or puts options before the password: `ALTER USER app PASSWORD '…'`,
    // `CREATE ROLE app LOGIN PASSWORD '…'`, `ALTER ROLE app WITH LOGIN PASSWORD '…'`.
    pattern: `\\b(?:identified by|with (?:(?:un)?encrypted )?password|(?:alter|create) (?:user|role) [\\w".-]{1,64}(?: (?:with|login|superuser|createdb|createrole|inherit|(?:un)?encrypted))* password)[ \\t]{1,3}(?:'[^'\\n]{3,128}'|"[^"\\n]{3,128}")`,
    validate: (m) => passwordValue(m.replace(/^[\w ".-]+?(?:by|password)[ \t]+['"]/i, "").slice(0, -1), true, 3),
    start: {
      at: "word",
      literals: [
        "identified by",
        "with password",
        "with encrypted password",
        "with unencrypted password",
        "alter user",
        "alter role",
        "create user",
        "create role",
      ],
    },
  },
  // A login call with a literal user and password: `smtp.login('ops@corp.com', '…')`, `ldap.simple_bind_s("cn=admin", "…")`.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: `(?:\\.|->)(?:login|authenticate|simple_bind_s|simple_bind|bind_s|auth)\\([ \\t]{0,3}["'][^"'\\n]{1,128}["'][ \\t]{0,3},[ \\t]{0,3}["'][^"'\\n]{3,128}["'][ \\t]{0,3}\\)`,
    validate: (m) => passwordValue(/["']([^"'\n]*)["'][ \t]*\)$/.exec(m)?.[1] ?? "", true, 3),
    start: {
      at: "literal",
      literals: [".login(", ".authenticate(", ".simple_bind", ".bind_s(", ".auth(", "->login(", "->authenticate(", "->auth("],
    },
  },
  // A database connection given the user and the password as literals, in the order the driver's call takes them:
  // `mysqli_connect("db01", "root", "…")`, `new PDO($dsn, "root", "…")`, `DriverManager.getConnection(url, "sa", "…")`.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: `\\b(?:mysqli?_connect|mysqli|PDO|getConnection|pymysql\\.connect|MySQLdb\\.connect|pg_connect_user)\\([^()\\n]{0,160}?,[ \\t]{0,3}["'][^"'\\n]{1,64}["'][ \\t]{0,3},[ \\t]{0,3}["'][^"'\\n]{3,128}["'][ \\t]{0,3}[,)]`,
    validate: (m) => passwordValue(/["']([^"'\n]*)["'][ \t]*[,)]$/.exec(m)?.[1] ?? "", true, 3),
    start: { at: "word", literals: ["mysql_connect", "mysqli", "PDO", "getConnection", "pymysql", "MySQLdb", "pg_connect_user"] },
  },
  // A signing or encryption key written into the call that uses it: `jwt.encode(payload, "…")`, `jwt.sign(p, '…')`,
  // `hmac.new(b"…", …)`, `crypto.createHmac("sha256", "…")`, `Fernet(b"…")`, `AES.new(b"…", …)`, Java's
  // `new SecretKeySpec("…".getBytes(), "AES")` and `setCipherKey(Base64.decode("…"))`, the literal maybe decoded first.
  {
    kind: "hardcoded_signing_key",
    category: "secret",
    pattern: `\\b(?:jwt\\.(?:encode|sign|decode|verify)\\([^,()\\n]{1,100},|hmac\\.new\\(|createHmac\\([^,()\\n]{1,20},|Fernet\\(|AES\\.new\\(|signWith\\([^,()\\n]{1,60},|(?:SecretKeySpec|setCipherKey)\\((?:[\\w.]{1,60}\\.(?:decode|decodeBase64|parseBase64Binary)\\()?)[ \\t]{0,3}b?(?:"[^"\\n]{8,128}"|'[^'\\n]{8,128}')`,
    validate: (m) => {
      const key = /["']([^"'\n]*)["']$/.exec(m)?.[1] ?? "";
      // A key someone typed or generated: a digit or a second case, or letters the randomness model calls generated
      // (`oiuneawrgiyubaegr`), and no word of documentation (`your-256-bit-secret`).
      if (notAValue(key)) return false;
      return ((/\d/.test(key) || (/[a-z]/.test(key) && /[A-Z]/.test(key))) && secretLike(key, 3.0)) || machineRandom(key);
    },
    start: { at: "word", literals: ["jwt", "hmac", "createHmac", "Fernet", "AES.new", "signWith", "SecretKeySpec", "setCipherKey"] },
  },
  // `#define WIFI_PASSWORD "…"`, `#define API_KEY "…"` (C, C++, Arduino sketches): a macro named for a credential.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `#define[ \\t]{1,3}[\\w]{0,40}?(?:password|passwd|pwd|pass|secret|token|api_?key|auth_?key|private_?key|secret_?key)\\d{0,3}[ \\t]{1,3}"[^"\\n]{3,128}"`,
    validate: (m) => {
      const [, name = "", value = ""] = /^#define[ \t]+(\w+)[ \t]+(".*")$/i.exec(m) ?? [];
      return namedValue(name, value);
    },
    start: { at: "literal", literals: ["#define"] },
  },
  // A getter named for a credential that returns a literal: `getSecret: () => '…'`, `getPassword() { return "…"; }`,
  // `def get_api_key(self): return "…"`. The name says what the literal is, as an assignment's would.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `\\bget_?(?:${GETTER_NAMES.join("|")})\\w{0,20}[ \\t]{0,3}(?:[:=][ \\t]{0,3}(?:async[ \\t]{1,3})?(?:function[ \\t]{0,3})?)?\\([^()\\n]{0,40}\\)[^"'\`;]{0,60}?(?:return[ \\t]{1,3}|=>[ \\t]{0,3})(?:"[^"\\n]{3,128}"|'[^'\\n]{3,128}'|\`[^\`\\n]{3,128}\`)`,
    validate: (m) => {
      const name = /^get_?[a-z_]+/i.exec(m)?.[0] ?? "";
      const value = /(?:"[^"\n]*"|'[^'\n]*'|`[^`\n]*`)$/.exec(m)?.[0].replace(/^`|`$/g, '"') ?? "";
      return !/\$\{/.test(value) && namedValue(name.replace(/^get_?/i, ""), value);
    },
    start: { at: "word", literals: GETTER_NAMES.flatMap((n) => [`get${n.replace(/[^a-z]/g, "")}`, `get_${n.replace(/[^a-z_]/g, "")}`]) },
  },
  // `config.setSecret("…")`, `set_secret('…')`: a setter given a literal (a password's setters and builders are in credential-calls.ts).
  {
    kind: "password_assignment",
    category: "secret",
    pattern: `\\b(?:setSecret|set_secret)\\([ \\t]{0,3}["'][^"'\\n]{3,128}["'][ \\t]{0,3}\\)`,
    validate: (m) => passwordValue(/["']([^"'\n]*)["']/.exec(m)?.[1] ?? "", true, 3),
    start: { at: "word", literals: ["setSecret", "set_secret"] },
  },
];
