/**
 * How many seeded credentials in generated forms the scanner finds: every credential name of NAMES (compound names in
 * every case style) crossed with every form of FORMS (assignments, configs, code, flags, tables, notes), each with a
 * generated token and a chosen password drawn from a seed, no value copied from a fixture. Prints the share found by
 * form and by name, and with `--misses` every text missed; then commands, code and chat lines that give one value
 * (LINES). A measure of breadth for the credential rules, not a test.
 *
 *   bun scanner/probe-credential-forms.ts [--seed N] [--misses]
 */
import { parseArgs } from "node:util";
import { scanText } from "../src/pipeline/scan/engine.ts";
import { random } from "./carriers.ts";

const { values } = parseArgs({ options: { seed: { type: "string", default: "5" }, misses: { type: "boolean", default: false } } });
const next = random(Number(values.seed));
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SIGNS = "!#%&*@^";

/** A base62 token with both cases and a digit. */
function token(n: number): string {
  for (;;) {
    const t = Array.from({ length: n }, () => ALNUM[Math.floor(next() * ALNUM.length)]).join("");
    if (/[a-z]/.test(t) && /[A-Z]/.test(t) && /\d/.test(t)) return t;
  }
}
/** Lower-case hex, as some APIs issue their keys. */
const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join("");
/** A chosen password: a shorter token with a sign inside it. */
function chosen(): string {
  const t = token(10 + Math.floor(next() * 6));
  const at = 1 + Math.floor(next() * (t.length - 2));
  return `${t.slice(0, at)}${SIGNS[Math.floor(next() * SIGNS.length)]}${t.slice(at)}`;
}

const NAMES = [
  "dbpassword",
  "DBPASS",
  "mysqlPwd",
  "admin_pw",
  "smtpPassword",
  "api-secret",
  "authkey",
  "accessToken",
  "clientsecret",
  "encryption_key",
  "privatekey",
  "passphrase",
  "pin",
  "licence key",
  "DB_PASSWORD",
  "password",
  "apiKey",
  "secret",
  "token",
  "redisAuth",
  "jwtSecret",
  "masterKey",
  "signingkey",
  "SECRET_KEY_BASE",
  "webhookSecret",
  "appPassword",
  "rootpw",
  "bindPassword",
  "serviceAccountKey",
  "refresh_token",
  "ClientSecret",
  "AccessKey",
  "session_secret",
  "hmacKey",
  "mailpass",
  "ftp_passwd",
  "sharedSecret",
  "storagePassword",
  "botToken",
  "deployKey",
];
/** Each form with N for the name and V for the value. */
const FORMS: Record<string, string> = {
  eq: "N=V",
  eqsp: "N = V",
  colon: "N: V",
  walrus: "N := V",
  fat: "N => V",
  arrow: "N -> V",
  larrow: "N <- V",
  space: "N V",
  sq: "N = 'V'",
  dq: 'N = "V"',
  bt: "N = `V`",
  yaml: "config:\n  N: V",
  yamlq: 'config:\n  N: "V"',
  toml: 'N = "V"',
  ini: "[db]\nN=V",
  env: "N=V",
  xmlel: "<N>V</N>",
  xmlattr: '<add N="V" />',
  json: '{"N": "V"}',
  hcl: 'N = "V"',
  props: "app.N=V",
  flag: "--N V",
  flageq: "--N=V",
  exp: "export N=V",
  expq: 'export N="V"',
  set: "set N=V",
  SET: "SET N=V",
  ENV: "ENV N V",
  ENVeq: "ENV N=V",
  ARG: "ARG N=V",
  dockere: "docker run -e N=V app",
  kwarg: 'connect(host="db", N="V")',
  kwargpy: "connect(host='db', N='V')",
  map: '{ N: "V" }',
  mapphp: "['N' => 'V']",
  md: "| N | V |",
  note: "the N for the server is V",
  pwnote: "N: V (rotate monthly)",
  jsobj: "const cfg = { N: 'V' };",
  goassign: 'N := "V"',
  cs: 'var N = "V";',
  ruby: 'N: "V",',
  rubyh: ':N => "V"',
  cfgset: 'config.set("N", "V")',
  hdr: "X-N: V",
  query: "https://api.example.com/v1?N=V",
  dict: 'cfg["N"] = "V"',
};

const found = (text: string) => scanText(text, { injection: false }).findings.some((f) => f.category === "secret");
const byForm: Record<string, [number, number]> = {};
const byName: Record<string, [number, number]> = {};
const missed: string[] = [];
for (const [form, shape] of Object.entries(FORMS))
  for (const n of NAMES)
    for (const kind of ["token", "chosen"]) {
      const value = kind === "token" ? token(20 + Math.floor(next() * 20)) : chosen();
      // Flags are written in kebab case; a blank in a name is an underscore where the form has no room for one.
      const name = form.startsWith("flag")
        ? n.toLowerCase().replace(/[_ ]/g, "-")
        : /^(env|exp|expq|set|SET|ENV|ENVeq|ARG|dockere|eq|ini)$/.test(form)
          ? n.replace(/ /g, "_")
          : n;
      const text = shape.replace(/\bN\b/g, name).replace(/\bV\b/, value);
      const hit = found(text);
      for (const [table, key] of [
        [byForm, form],
        [byName, n],
      ] as const) {
        const row = (table[key] ??= [0, 0]);
        row[hit ? 0 : 1]++;
      }
      if (!hit) missed.push(`${form}\t${kind}\t${JSON.stringify(text)}`);
    }
const share = ([hit, miss]: [number, number]) => `${hit}/${hit + miss}`;
console.log(
  `by form: ${Object.entries(byForm)
    .map(([k, v]) => `${k} ${share(v)}`)
    .join(", ")}`,
);
console.log(
  `by name: ${Object.entries(byName)
    .map(([k, v]) => `${k} ${share(v)}`)
    .join(", ")}`,
);
const total = Object.values(byForm).reduce<[number, number]>((a, b) => [a[0] + b[0], a[1] + b[1]], [0, 0]);
console.log(`found: ${share(total)}`);
if (values.misses) console.log(missed.join("\n"));

/** Commands, code and chat lines that give one value (`V`), each with the kind of value they give. */
const LINES: Record<string, [string, () => string]> = {
  curlu2: ["curl -u admin:V https://api.example.com/v1/items", chosen],
  urlinfo2: ["postgres://app:V@db.internal:5432/orders", chosen],
  sqlid2: ["CREATE USER 'app'@'%' IDENTIFIED BY 'V';", chosen],
  login2: ["login admin / V", chosen],
  pwnote2: ["pw: V", chosen],
  creds2: ["creds: deploy/V", chosen],
  pflag2: ["mysql -u root -p V -h db", chosen],
  pjoin2: ["mysql -u root -pV -h db", chosen],
  longflag2: ["mysqladmin --password V status", chosen],
  dockere2: ["docker run -e MYSQL_ROOT_PASSWORD=V mysql:8", chosen],
  kwarg2: ['psycopg2.connect(host="db", user="app", password="V")', chosen],
  hcl2: ['password = "V"', chosen],
  note2: ["the password for the server is V", chosen],
  noteDe2: ["das Passwort für den Server ist V", chosen],
  noteFr2: ["le mot de passe du serveur est V", chosen],
  noteEs2: ["la contraseña del servidor es V", chosen],
  mdtable2: ["| db | admin | V |", chosen],
  mdtable22: ["| host | user | password |\n|---|---|---|\n| db01 | admin | V |", chosen],
  yaml2: ["database:\n  user: admin\n  password: V", chosen],
  ini2: ["[mysql]\nuser=admin\npassword=V", chosen],
  xml2: ["<password>V</password>", chosen],
  props2: ["spring.datasource.password=V", chosen],
  envexport2: ["export PGPASSWORD=V", chosen],
  setwin2: ["set DB_PASS=V", chosen],
  ps2: ['$password = ConvertTo-SecureString "V" -AsPlainText -Force', chosen],
  netcred2: ['new NetworkCredential("admin", "V")', chosen],
  sshpass2: ["sshpass -p 'V' ssh admin@host", chosen],
  jdbc2: ["jdbc:mysql://db:3306/app?user=admin&password=V", chosen],
  odbc2: ["Server=db;Database=app;User Id=admin;Password=V;", chosen],
  chatUser2: ["hey can you check why login fails, my password is V", chosen],
  chatWifi2: ["wifi password: V", chosen],
  arrow2: ["admin password -> V", chosen],

  setPw: ['ds.setPassword("V");', chosen],
  setPwTok: ['cfg.setApiKey("V");', () => token(32)],
  withPw: ['builder.withPassword("V")', chosen],
  builderPw: ['.password("V")', chosen],
  builderTok: ['.apiKey("V")', () => token(32)],
  gradle: ['credentials {\n  username "deploy"\n  password "V"\n}', chosen],
  gradleTok: ['token "V"', () => token(32)],
  keyring: ['keyring.set_password("svc", "admin", "V")', chosen],
  authTokenHdr: ["Authorization: token V", () => token(40)],
  pyDict: ["{'user': 'admin', 'passwd': 'V'}", chosen],
  rubySym: ["password: 'V'", chosen],
  phpArr: ["$cfg['db_pass'] = 'V';", chosen],
  swift: ['let apiKey = "V"', () => token(32)],
  go: ['const apiSecret = "V"', () => token(32)],
  cfgSet: ['os.environ["DB_PASSWORD"] = "V"', chosen],
  putenv: ['putenv("DB_PASSWORD=V");', chosen],
  jsSet: ["process.env.DB_PASSWORD = 'V';", chosen],
  yamlList: ["env:\n  - DB_PASSWORD=V", chosen],
  argsList: ['args: ["--password", "V"]', chosen],
  cmdArr: ['["mysql", "-u", "root", "-pV"]', chosen],
  ansible: ["ansible_ssh_pass: V", chosen],
  ansibleBecome: ["ansible_become_password: V", chosen],
  wpdefine: ["define('DB_PASSWORD', 'V');", chosen],
  net: ['<add name="Db" connectionString="Server=db;User ID=sa;Password=V;" />', chosen],
  mongo: ["mongodb+srv://admin:V@cluster0.example.net/app", chosen],
  redisUrl: ["redis://:V@cache:6379/0", chosen],
  amqp: ["amqp://guest:V@mq:5672/", chosen],
  smtp: ["smtp://mailer:V@smtp.example.com:587", chosen],
  jsonNested: ['{"db": {"user": "app", "password": "V"}}', chosen],
  tomlSec: ['[database]\nuser = "app"\npassword = "V"', chosen],
  hclVar: ['variable "db_password" {\n  default = "V"\n}', chosen],
  tfProvider: ['provider "mysql" {\n  password = "V"\n}', chosen],
  jenkins: [
    "withCredentials([string(credentialsId: 'x', variable: 'TOKEN')]) { sh 'curl -H \"Authorization: Bearer V\"' }",
    () => token(40),
  ],
  psCred: ['$cred = New-Object PSCredential("admin", (ConvertTo-SecureString "V" -AsPlainText -Force))', chosen],
  vbnet: ['Dim password As String = "V"', chosen],
  sqlCreate: ["CREATE LOGIN app WITH PASSWORD = 'V';", chosen],
  alter: ["ALTER ROLE app WITH PASSWORD 'V';", chosen],
  mysqlGrant: ["GRANT ALL ON *.* TO 'app'@'%' IDENTIFIED BY 'V';", chosen],
  htpasswd: ["htpasswd -b -c .htpasswd admin V", chosen],
  chpasswd: ["echo 'admin:V' | chpasswd", chosen],
  smbclient: ["smbclient //srv/share -U admin%V", chosen],
  wget: ["wget --user=admin --password=V https://files.example.com/a.zip", chosen],
  curlAuth: ['curl -H "X-Api-Key: V" https://api.example.com', () => token(32)],
  npmrc: ["//registry.npmjs.org/:_authToken=V", () => token(36)],
  pip: ["https://__token__:V@upload.pypi.org/legacy/", () => token(40)],
  sshpass: ["sshpass -p V ssh admin@host", chosen],
  openssl: ["openssl enc -aes-256-cbc -k V -in a -out b", chosen],
  zip: ["zip -P V secret.zip a.txt", chosen],
  chatDe: ["Hier das Passwort: V", chosen],
  chatIt: ["la password del db è V", chosen],
  chatPl: ["hasło do serwera: V", chosen],
  chatTr: ["sunucu şifresi: V", chosen],
  chatRu: ["пароль от базы: V", chosen],
  chatJa: ["DBのパスワードは V です", chosen],
  chatZh: ["数据库密码是 V", chosen],
  chatKo: ["DB 비밀번호는 V 입니다", chosen],
  chatNl: ["wachtwoord van de server: V", chosen],
  chatPt: ["a senha do servidor é V", chosen],
  chatSv: ["lösenordet är V", chosen],
  chatFr: ["le mdp c'est V", chosen],
  chatEs2: ["clave del wifi: V", chosen],
  chatEn2: ["my pass is V", chosen],
  chatEn3: ["here's the token: V", () => token(32)],
  chatEn4: ["use this key V for the API", () => token(32)],
  // The eighth round's forms: other languages' copulas, the syntaxes with no sign, more calls and flags.
  copulaDe: ["mein Passwort ist V", chosen],
  copulaFr: ["le mot de passe est V", chosen],
  copulaEs: ["la contraseña es V", chosen],
  copulaNl: ["het wachtwoord is V", chosen],
  copulaNo: ["passordet er V", chosen],
  pwForIs: ["the password for jenkins is V", chosen],
  rAssign: ['password <- "V"', chosen],
  credWord: ['const cred = "V"', () => token(32)],
  bearerLabel: ['bearer = "Bearer: V"', () => token(32)],
  erlang: ['{password, "V"}', chosen],
  rabbitmq: ['{default_pass, <<"V">>}', chosen],
  clojure: ['{:user "app" :password "V"}', chosen],
  elisp: ['(setq erc-password "V")', chosen],
  plist: ["<key>Password</key>\n<string>V</string>", chosen],
  mysqlFn: ["SET PASSWORD FOR 'app'@'%' = PASSWORD('V');", chosen],
  pgLogin: ["ALTER ROLE app WITH LOGIN PASSWORD 'V';", chosen],
  spAddlogin: ["EXEC sp_addlogin 'app', 'V';", chosen],
  goBasic: ['req.SetBasicAuth("svc", "V")', chosen],
  restAssured: ['given().auth().basic("svc", "V")', chosen],
  azSql: ["az sql server create -u sqladmin -p 'V'", chosen],
  schtasks: ["schtasks /Create /TN b /RU svc /RP V", chosen],
  urlKey: ["https://api.example.com/v1/data?q=1&key=V", () => hex(32)],
};
let lineHits = 0;
let lineCount = 0;
const lineMisses: string[] = [];
for (const [form, [shape, value]] of Object.entries(LINES))
  for (let i = 0; i < 4; i++) {
    const text = shape.replace("V", value());
    lineCount++;
    if (found(text)) lineHits++;
    else lineMisses.push(`${form}\t${JSON.stringify(text)}`);
  }
console.log(`lines found: ${lineHits}/${lineCount}`);
if (values.misses) console.log(lineMisses.join("\n"));
