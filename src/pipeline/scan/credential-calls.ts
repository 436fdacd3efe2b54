/**
 * A user and a password handed as literals to more libraries' calls than credential-commands.ts
 * knows: HTTP clients' basic-auth helpers (Spring's `basicAuthentication("api", "…")`,
 * `setBasicAuth`, `setCredentials`, OkHttp's `Credentials.basic`, REST Assured's `auth().basic`), Go's
 * `req.SetBasicAuth` and `smtp.PlainAuth`,
 * Python's `ftplib.FTP(host, user, "…")` and `ldap3.Connection(server, user, "…")`, PHP's
 * `ftp_login`, `ldap_bind`, `ssh2_auth_password`, `imap_open`, Ruby's `Net::SMTP.start(…,
 * user, "…", :login)`, .NET's `AuthenticationHeaderValue("Basic", "<base64>")`; Oracle's tools
 * with `user/password` (`sqlplus scott/…@ORCL`, `expdp system/…`), a Wi-Fi QR code's
 * `WIFI:…;P:…;;`, and a Windows answer file's `<AdministratorPassword><Value>…`.
 * A wallet's private key handed to its signer (`new ethers.Wallet("0x…")`). Setters and builders named after a
 * password (`withPassword("…")`, `.password("…")`, `keyring.set_password(…, "…")`).
 * Variables are code, placeholders stay allowed.
 */
import { basicCredential, passwordValue } from "./credential-forms.ts";
import type { Detector, GatedSecretRule } from "./detector.ts";
import { secretLike } from "./validators.ts";

/** A string literal, single or double quoted. */
const Q = `(?:"[^"\\n]{1,128}"|'[^'\\n]{1,128}')`;
/** The same, possibly empty (Go's identity is usually `""`). */
const Q0 = `(?:"[^"\\n]{0,128}"|'[^'\\n]{0,128}')`;
/** The last literal of a match (the password, in these calls' order). */
const lastLiteral = (m: string) => /["']([^"'\n]*)["'][^"']*$/.exec(m)?.[1] ?? "";
/** The literal before the last: Ruby's `Net::SMTP.start` ends with the auth type's symbol. */
const literalAt = (m: string, fromEnd: number) => [...m.matchAll(/["']([^"'\n]*)["']/g)].at(-fromEnd)?.[1] ?? "";

/** Calls whose two first arguments are the user and the password. */
/** Go's `req.SetBasicAuth` too; REST Assured's `auth().basic(…)` and `auth().preemptive().basic(…)` open at `().basic(`. */
const PAIR_CALLS = [
  "basicAuthentication(",
  "setBasicAuth(",
  "SetBasicAuth(",
  "setCredentials(",
  "withBasicAuth(",
  "Credentials.basic(",
  "CRAMMD5Auth(",
];
/** PHP's calls whose first argument is the connection, then the user and the password. */
const PHP_CALLS = ["ftp_login(", "ldap_bind(", "ssh2_auth_password(", "imap_open("];

/** Setters and builders named after a password (`withPassword(`, `keyring.set_password(`, `.password(`), any case. */
const PASSWORD_METHODS = ["password", "passwd", "passphrase"];
const PASSWORD_CALL_WORDS = PASSWORD_METHODS.flatMap((p) => ["set", "with", "use"].flatMap((v) => [`${v}${p}(`, `${v}_${p}(`]));

export const CREDENTIAL_CALL_DETECTORS: Detector[] = [
  // A wallet's private key handed to the library that signs with it: `new ethers.Wallet("0x…")`, web3's
  // `Account.from_key("0x…")`, `privateKeyToAccount('0x…')` (a bare 0x and 64 hex is as often a transaction's hash).
  {
    kind: "private_key",
    category: "secret",
    pattern: `\\b(?:Wallet|from_key|privateKeyToAccount|fromPrivateKey)\\([ \\t]{0,3}["'](?:0x)?[0-9a-fA-F]{64}["']`,
    validate: (m) =>
      secretLike(
        m
          .slice(m.search(/["']/) + 1)
          .replace(/^(?:0x)?/, "")
          .slice(0, 64),
        3.0,
      ),
    start: { at: "word", literals: ["Wallet(", "from_key(", "privateKeyToAccount(", "fromPrivateKey("] },
  },
  // A setter or a builder named after a password given a literal, last: `builder.withPassword("…")`, `.password("…")`,
  // `keyring.set_password("svc", "admin", "…")`.
  {
    kind: "password_assignment",
    category: "secret",
    ignoreCase: true,
    pattern: `(?:\\b(?:set|with|use)_?|\\.)(?:${PASSWORD_METHODS.join("|")})\\((?:[^()\\n]{0,96},)?[ \\t]{0,3}${Q}[ \\t]{0,3}\\)`,
    validate: (m) => passwordValue(lastLiteral(m), true, 3),
    start: [
      { at: "word", literals: PASSWORD_CALL_WORDS },
      { at: "literal", literals: PASSWORD_METHODS.map((p) => `.${p}(`) },
    ],
  },
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: `(?:\\b(?:basicAuthentication|[sS]etBasicAuth|setCredentials|withBasicAuth|Credentials\\.basic|CRAMMD5Auth)|\\(\\)\\.basic)\\([ \\t]{0,3}${Q}[ \\t]{0,3},[ \\t]{0,3}${Q}`,
    validate: (m) => passwordValue(lastLiteral(m), true, 3),
    start: [
      { at: "word", literals: PAIR_CALLS },
      { at: "literal", literals: ["().basic("] },
    ],
  },
  // Go: `smtp.PlainAuth("", "mailer@corp.example", "…", host)`, the identity first.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: `\\bPlainAuth\\([ \\t]{0,3}${Q0}[ \\t]{0,3},[ \\t]{0,3}${Q}[ \\t]{0,3},[ \\t]{0,3}${Q}`,
    validate: (m) => passwordValue(lastLiteral(m), true, 3),
    start: { at: "word", literals: ["PlainAuth("] },
  },
  // Python: `ftplib.FTP("files.corp", "backup", "…")`, `ldap3.Connection(server, "cn=admin,…", "…")`.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: `\\b(?:ftplib\\.FTP(?:_TLS)?\\([ \\t]{0,3}${Q}|ldap3\\.Connection\\([ \\t]{0,3}[\\w.]{1,64})[ \\t]{0,3},[ \\t]{0,3}(?:user=)?${Q}[ \\t]{0,3},[ \\t]{0,3}(?:passwd=|password=)?${Q}`,
    validate: (m) => passwordValue(lastLiteral(m), true, 3),
    start: { at: "word", literals: ["ftplib.FTP", "ldap3.Connection("] },
  },
  // PHP: `ftp_login($conn, "backup", "…")`, `ldap_bind($ds, "cn=admin,…", "…")`.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: `\\b(?:ftp_login|ldap_bind|ssh2_auth_password|imap_open)\\([^,()\\n]{1,128},[ \\t]{0,3}${Q}[ \\t]{0,3},[ \\t]{0,3}${Q}`,
    validate: (m) => passwordValue(lastLiteral(m), true, 3),
    start: { at: "word", literals: PHP_CALLS },
  },
  // Ruby: `Net::SMTP.start(address, port, helo, "mailer", "…", :login)`.
  {
    kind: "credential_constructor",
    category: "secret",
    pattern: `\\bNet::SMTP\\.start\\([^()\\n]{0,200}?${Q}[ \\t]{0,3},[ \\t]{0,3}${Q}[ \\t]{0,3},[ \\t]{0,3}:(?:login|plain|cram_md5)\\b`,
    validate: (m) => passwordValue(literalAt(m, 1), true, 3),
    start: { at: "word", literals: ["Net::SMTP.start("] },
  },
  // .NET: `new AuthenticationHeaderValue("Basic", "<base64 of user:password>")`.
  {
    kind: "authorization_header",
    category: "secret",
    pattern: `\\bAuthenticationHeaderValue\\([ \\t]{0,3}"Basic"[ \\t]{0,3},[ \\t]{0,3}"[A-Za-z0-9+/]{6,512}={0,2}"`,
    validate: (m) => basicCredential(lastLiteral(m)),
    start: { at: "word", literals: ["AuthenticationHeaderValue("] },
  },
  // Oracle's tools log in with `user/password[@connect]`: `sqlplus scott/…@ORCL`, `expdp system/… schemas=shop`. With a
  // host and a port after it (`…@db01:1521/ORCL`) the address rule of credential-notes.ts names it.
  {
    kind: "command_line_secret",
    category: "secret",
    pattern:
      "\\b(?:sqlplus|expdp|impdp|rman|sqlldr|dgmgrl)(?:[ \\t]{1,3}-[A-Za-z]{1,2})?[ \\t]{1,3}(?:userid=)?[A-Za-z][\\w$#]{0,29}/[^\\s@/\"']{3,64}(?=[@\\s]|$)(?!@[\\w.-]{1,253}:\\d)",
    validate: (m) => passwordValue(m.slice(m.lastIndexOf("/") + 1), false, 6),
    start: { at: "word", literals: ["sqlplus", "expdp", "impdp", "rman", "sqlldr", "dgmgrl"] },
  },
  // A certificate's or a key store's password written into the call that opens it: .NET's `new X509Certificate2(path,
  // "…")` (its arguments often one a line), Java's `keyStore.load(in, "…".toCharArray())` and `getKey(alias, "…".toCharArray())`.
  {
    kind: "password_assignment",
    category: "secret",
    pattern: `\\b(?:X509Certificate2?\\([^()]{1,160}?,|(?:\\.load|\\.getKey|\\.setKeyEntry|\\.init)\\([^()\\n]{1,80}?,)\\s{0,16}"[^"\\n]{3,128}"(?:\\.toCharArray\\(\\))?\\s{0,16}[,)]`,
    validate: (m) =>
      (/^X509/.test(m) || /\.toCharArray\(\)\s*[,)]$/.test(m)) &&
      passwordValue(/"([^"\n]*)"(?:\.toCharArray\(\))?\s*[,)]$/.exec(m)?.[1] ?? "", true, 3),
    start: [
      { at: "word", literals: ["X509Certificate"] },
      { at: "literal", literals: [".load(", ".getKey(", ".setKeyEntry(", ".init("] },
    ],
  },
  // A Wi-Fi network's QR code text: `WIFI:S:<ssid>;T:WPA;P:<password>;;`.
  {
    kind: "password_assignment",
    category: "secret",
    pattern: "\\bWIFI:(?:[STHR]:[^;\\n]{0,64};){0,4}P:[^;\\n]{3,64};",
    validate: (m) => passwordValue(/P:([^;\n]*);$/.exec(m)?.[1] ?? "", true, 6),
    start: { at: "word", literals: ["WIFI:"] },
  },
];

/**
 * A Windows answer file's (unattend.xml) passwords: `<AdministratorPassword><Value>…</Value>`, `<Password><Value>…`.
 * Gated, as the other XML password elements are, by the element's name.
 */
export const UNATTEND_PASSWORD_RULE: GatedSecretRule = {
  kind: "xml_password",
  regex: /<(?:AdministratorPassword|Password|DomainAdminPassword)>\s{0,16}<Value>[^<\n]{3,128}<\/Value>/g,
  keywords: ["password>"],
  validate: (m) => passwordValue(m.slice(m.lastIndexOf("<Value>") + 7, m.lastIndexOf("</")), true, 6),
};
