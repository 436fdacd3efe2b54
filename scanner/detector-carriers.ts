/**
 * Generated carriers for the credential and personal-data evaluation: each credential
 * form inside config files, env files, code and chat, with seeded random values;
 * national phone numbers of the supported locales' countries, drawn at random and
 * written by libphonenumber-js's own national formatting (then with dashes and dots);
 * and look-alikes (dates, versions, IPs, order and tracking numbers, ISBNs,
 * timestamps, amounts). Written by the rules' author, so not independent of them:
 * docs/scanner.md reports them apart from the public sources.
 */
import { type CountryCode, parsePhoneNumber } from "libphonenumber-js/max";

export interface Carrier {
  source: string;
  category: "secret" | "pii" | "benign";
  kind: string;
  text: string;
  /** For phone numbers: the region the organization would have set. */
  region?: string;
}

/** A seeded generator (xorshift): the same carriers on every run. */
export function seeded(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const chars = (n: number, alphabet: string) => Array.from({ length: n }, () => pick([...alphabet])).join("");
  return { next, pick, chars };
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const WORDS = ["Summer", "Falcon", "Orange", "Winter", "Rocket", "Maple", "Tiger", "Harbor", "Silver", "Cobalt"];

/** Each credential form: a name for the variable and a value maker. */
function credentials(r: ReturnType<typeof seeded>): { kind: string; name: string; value: string }[] {
  const pw = () => `${r.pick(WORDS)}${r.chars(2, "0123456789")}${r.pick(["!", "#", "$", "%", "&", ""])}${r.chars(3, ALNUM)}`;
  return [
    { kind: "dockerhub", name: "DOCKERHUB_TOKEN", value: `dckr_pat_${r.chars(27, ALNUM + "-_")}` },
    { kind: "doppler", name: "DOPPLER_TOKEN", value: `dp.${r.pick(["st.prd", "st.dev", "sa", "ct"])}.${r.chars(43, ALNUM)}` },
    { kind: "cratesio", name: "CARGO_REGISTRY_TOKEN", value: `cio${r.chars(32, ALNUM)}` },
    { kind: "azure-devops", name: "AZURE_DEVOPS_EXT_PAT", value: r.chars(52, "abcdefghijklmnopqrstuvwxyz234567") },
    { kind: "adafruit", name: "ADAFRUIT_IO_KEY", value: `aio_${r.chars(28, ALNUM)}` },
    { kind: "dependency-track", name: "DTRACK_API_KEY", value: `odt_${r.chars(32, ALNUM)}` },
    { kind: "codeclimate", name: "CC_TEST_REPORTER_ID", value: r.chars(64, HEX) },
    { kind: "password", name: "DB_PASSWORD", value: pw() },
    { kind: "password", name: "SMTP_PASS", value: pw() },
    { kind: "postgres-url", name: "DATABASE_URL", value: `postgresql://app_user:${pw()}@db-${r.chars(4, HEX)}.internal:5432/orders` },
    {
      kind: "mongo-url",
      name: "MONGO_URI",
      value: `mongodb+srv://admin:${pw()}@cluster0.${r.chars(5, "abcdefghijklmnopqrstuvwxyz")}.mongodb.net/prod`,
    },
    { kind: "redis-url", name: "REDIS_URL", value: `redis://:${pw()}@cache.internal:6379/0` },
    { kind: "mysql-url", name: "MYSQL_URL", value: `mysql://root:${pw()}@127.0.0.1:3306/shop` },
  ];
}

function configCarriers(r: ReturnType<typeof seeded>, n: number): Carrier[] {
  const out: Carrier[] = [];
  for (let i = 0; i < n; i++) {
    for (const { kind, name, value } of credentials(r)) {
      const lower = name.toLowerCase();
      const text = r.pick([
        `# .env\nNODE_ENV=production\nPORT=8080\n${name}=${value}\nLOG_LEVEL=info\n`,
        `services:\n  api:\n    image: corp/api:1.4.2\n    environment:\n      ${name}: "${value}"\n      REGION: eu-west-1\n`,
        `{\n  "service": "billing",\n  "${lower}": "${value}",\n  "timeout": 30\n}`,
        `[default]\nregion = eu-central-1\n${lower} = ${value}\n`,
        `import os\n\n${name} = "${value}"\nclient = Client(token=${name})\n`,
        `const config = {\n  ${lower.replace(/_(\w)/g, (_, c) => c.toUpperCase())}: '${value}',\n  retries: 3,\n};`,
        `Why does my deploy fail? I set ${name}=${value} in the pipeline but it still says unauthorized.`,
        `export ${name}="${value}"\n./deploy.sh --env prod`,
      ]);
      out.push({ source: "generated carriers", category: "secret", kind, text });
    }
    const p = `${r.pick(WORDS)}${r.chars(2, "0123456789")}!${r.chars(3, ALNUM)}`;
    const user = r.pick(["svc_backup", "deploy", "report", "etl"]);
    const forms: [string, string][] = [
      [
        "odbc",
        `Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql-${r.chars(4, HEX)}.corp.net,1433;Database=crm;Uid=${user};Pwd=${p};Encrypt=yes;`,
      ],
      ["ado-net", `"ConnectionStrings": { "Default": "Server=db01;Database=Sales;User Id=${user};Password=${p};" }`],
      ["netrc", `machine git.corp.net\n  login ${user}\n  password ${p}\n`],
      ["network-credential", `var client = new SmtpClient("smtp.corp.net") { Credentials = new NetworkCredential("${user}", "${p}") };`],
      ["php-array", `return [\n    'host' => 'db',\n    'username' => '${user}',\n    'password' => '${p}',\n];`],
      ["yaml-password", `datasource:\n  username: ${user}\n  password: ${p}\n`],
      ["basic-url", `git clone https://${user}:${p}@git.corp.net/team/app.git`],
      ["basic-header", `curl -H "Authorization: Basic ${btoa(`${user}:${p}`)}" https://api.corp.net/v1/jobs`],
      ["requests-auth", `r = requests.get(url, auth=("${user}", "${p}"), timeout=10)`],
      [
        "pem",
        `Here is the key from the server:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow${r.chars(58, ALNUM + "+/")}\n${r.chars(64, ALNUM + "+/")}\n-----END RSA PRIVATE KEY-----`,
      ],
      [
        "putty",
        `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ${user}\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI${r.chars(40, ALNUM)}\nPrivate-Lines: 1\nAAAAI${r.chars(40, ALNUM)}\nPrivate-MAC: ${r.chars(64, HEX)}`,
      ],
      [
        "jwt",
        `Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI${r.chars(20, ALNUM)}In0.${r.chars(43, ALNUM + "_-")}`,
      ],
    ];
    for (const [kind, text] of forms) out.push({ source: "generated carriers", category: "secret", kind, text });
  }
  return out;
}

/** What must stay allowed: placeholders, variables, identifiers, code that reads a value. */
function allowedCarriers(): Carrier[] {
  const texts: [string, string][] = [
    ["placeholder", "DB_PASSWORD=changeme"],
    ["placeholder", "password: ${DB_PASSWORD}"],
    ["placeholder", "DOCKERHUB_TOKEN=<token>"],
    ["placeholder", "api_key: xxxxxxxxxxxxxxxx"],
    ["placeholder", "password=***"],
    ["placeholder", "password: your-password"],
    ["placeholder", "DATABASE_URL=postgres://user:password@localhost:5432/mydb"],
    ["placeholder", "Server=db;Database=app;User Id=sa;Password=<password>;"],
    ["placeholder", 'new NetworkCredential("username", "password")'],
    ["placeholder", "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----"],
    ["placeholder", "Authorization: Bearer <YOUR_TOKEN>"],
    ["placeholder", "machine example.com login USERNAME password PASSWORD"],
    ["code", "password = os.environ['DB_PASSWORD']"],
    ["code", "const password = process.env.DB_PASSWORD;"],
    ["code", "def login(username: str, password: str) -> bool:"],
    ["code", "if user.password == hash(password):"],
    ["code", "password: z.string().min(12)"],
    ["identifier", "arn:aws:iam::123456789012:role/deploy-role"],
    ["identifier", "AWS_ACCOUNT_ID=123456789012"],
    ["identifier", "S3_BUCKET=corp-app-assets-prod"],
    ["identifier", "aws s3 cp build/ s3://corp-static-site-2024/ --recursive"],
    ["identifier", "GOOGLE_CLIENT_ID=203947562183-k2j4h5g6f7d8s9a0.apps.googleusercontent.com"],
    ["identifier", "AZURE_CLIENT_ID=6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f"],
    ["identifier", "GITHUB_CLIENT_ID=Iv1.8a61f9b3a7aba766"],
  ];
  return texts.map(([kind, text]) => ({ source: "generated carriers", category: "benign", kind: `secret-lookalike:${kind}`, text }));
}

/** The countries of the supported locales, and how their people introduce a number. */
const PHONE_COUNTRIES: readonly [CountryCode, string][] = [
  ["PL", "Zadzwoń pod"],
  ["NL", "Bel me op"],
  ["IT", "Chiamami al"],
  ["ES", "Llámame al"],
  ["CA", "Call me at"],
  ["AU", "Ring me on"],
  ["DE", "Ruf mich an unter"],
  ["FR", "Appelez-moi au"],
  ["GB", "Call me on"],
  ["US", "Text me at"],
];

function phoneCarriers(r: ReturnType<typeof seeded>, perCountry: number): Carrier[] {
  const out: Carrier[] = [];
  for (const [country, intro] of PHONE_COUNTRIES) {
    let made = 0;
    for (let tries = 0; made < perCountry && tries < perCountry * 400; tries++) {
      const national = `${r.chars(1, "123456789")}${r.chars(8 + Math.floor(r.next() * 3), "0123456789")}`;
      let number: ReturnType<typeof parsePhoneNumber>;
      try {
        number = parsePhoneNumber(national, country);
      } catch {
        continue;
      }
      if (!number.isValid()) continue;
      const written = number.formatNational();
      const style = r.pick(["as formatted", "dashes", "dots"]);
      // Separators change between digit groups only: `(02) 9876-5432`, not `(02)-9876-5432`.
      const text = style === "as formatted" ? written : written.replace(/(\d) (?=\d)/g, `$1${style === "dashes" ? "-" : "."}`);
      out.push({
        source: "generated carriers",
        category: "pii",
        kind: `phone:${country}:${style}`,
        region: country,
        text: `${intro} ${text} after six.`,
      });
      made++;
    }
  }
  return out;
}

function phoneLookAlikes(r: ReturnType<typeof seeded>, n: number): Carrier[] {
  const d = (k: number) => r.chars(k, "0123456789");
  const make = (): [string, string] =>
    r.pick<[string, string]>([
      ["date", `Released on 20${d(2)}-0${r.chars(1, "123456789")}-1${d(1)}, patched 1${d(1)}.0${r.chars(1, "123456789")}.20${d(2)}.`],
      ["datetime", `at 20${d(2)}-1${r.chars(1, "012")}-2${d(1)} 1${d(1)}:${r.chars(1, "012345")}${d(1)}:0${d(1)}`],
      ["version", `upgrade to ${r.chars(1, "123456789")}.${d(1)}.${d(3)}.${d(4)} before Friday`],
      ["ip", `the host at 10.${d(2)}.${d(2)}.${d(2)} and 192.168.${d(2)}.${d(2)}`],
      ["order", `Order #${d(9)} shipped; order number ${d(3)} ${d(3)} ${d(3)}.`],
      ["invoice", `Invoice INV-20${d(2)}-${d(6)} is due; ref ${d(10)}.`],
      ["tracking", `Tracking number ${d(4)} ${d(4)} ${d(4)} ${d(4)} ${d(2)}, parcel ${d(12)}.`],
      ["isbn", `ISBN 978-${d(1)}-${d(2)}-${d(6)}-${d(1)}`],
      ["timestamp", `created_at: 1${d(9)}, updated_at: 1${d(12)}`],
      ["amount", `Revenue was ${d(3)} ${d(3)} ${d(3)} € and costs ${d(2)} ${d(3)} ${d(3)} zł.`],
      ["counts", `The table has ${d(3)} ${d(3)} ${d(3)} rows and ${d(2)} ${d(3)} users.`],
    ]);
  return Array.from({ length: n }, () => {
    const [kind, text] = make();
    return {
      source: "generated carriers",
      category: "benign" as const,
      kind: `pii-lookalike:${kind}`,
      text,
      region: r.pick(PHONE_COUNTRIES)[0],
    };
  });
}

export function generatedCarriers(seed = 20261127): Carrier[] {
  const r = seeded(seed);
  return [...configCarriers(r, 8), ...allowedCarriers(), ...phoneCarriers(r, 20), ...phoneLookAlikes(r, 300)];
}
