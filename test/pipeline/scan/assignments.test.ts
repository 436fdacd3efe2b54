/**
 * Generic credential assignments: names of one to three segments with a numbered
 * suffix or a qualifier (`_PROD`, `_base`), prefixed `*_KEY` and `*_PAT` names, env-file lines, YAML block values, chosen
 * passwords by name and tokens by randomness; templates, references, variables, record keys and an interface's texts
 * (a translation file's labels and sentences) are no credentials.
 */
import { describe, expect, test } from "bun:test";
import { scanText } from "../../../src/pipeline/scan/engine.ts";

const assignments = (text: string) =>
  scanText(text, { injection: false })
    .findings.filter((f) => f.kind === "password_assignment")
    .map((f) => text.slice(f.start, f.end));

describe("found", () => {
  test.each([
    ["three-segment name", "CARGO_REGISTRY_TOKEN=K9mQ2vL7pR4tW8nB3cF6hJ1dG5sA0zE9"],
    // A URL's query parameter named `key`: an API's key, hex as many APIs issue it.
    ["a key in a URL's query", "GET https://api.weather.example/v2/forecast?q=oslo&key=9c1e7b4d4e8f9a6b2c5d8e1f0a3b7f3a"],
    // A declaration's string type between the name and its sign.
    ["TypeScript's annotation", 'const password: string = "Tr0ub4dor&3";'],
    ["Go's type after the name", 'var dbPassword string = "Wint3r!Sky"'],
    ["Python's annotation", 'smtp_password: str = "Gr33n!Tea42"'],
    ["Visual Basic's As", 'Dim password As String = "Sup3rS3cret!"'],
    ["Rust's borrowed str", 'let db_password: &\'static str = "Blue-Falcon-42";'],
    ["Kotlin's annotation", 'val apiToken: String = "Xq7Lm2Rk9XwTz4Hn8Bc3Pd6Y"'],
    ["numbered name", 'const static_password04 = "Tr0ub4dor&3";'],
    ["Go's :=", 'dbPassword := "Wint3r!Sky"'],
    ["PHP's =>", "'db_password' => 'Sup3rS3cret!',"],
    ["prefixed key", "GITLAB_KEY: Xq7Lm2Rk9XwTz4Hn8Bc3Pd6Y"],
    ["camelCase key", '"slackKey": "Xq7Lm2Rk9XwTz4Hn8Bc3Pd6Y"'],
    ["dotted key", "api.key=dGhpc2lzYWhhcmRjb2RlZHN0cmluZzpECg03"],
    ["long mixed-case token", 'DRONE_TOKEN="YXNkZmZmZmZmHARDcodedQ"'],
    ["env line of one kind of character", "SSH_PASSWORD=correcthorsebattery"],
    ["query string", "jdbc:mysql://db/app?user=report&userpass=batterystaple"],
    ["connection string's short password", "Database=shop;Server=db;Uid=root;Password=admin;"],
    ["secret by name", 'secretarySecret: "Blue-Falcon-42"'],
    ["name and value pair", '{"key": "db_password", "value": "Gr33n!Tea"}'],
    ["a generated value under a bare key", '"key": "Vb7Qm2Lx9Rk4Tz8Hn3Wc6Pd5"'],
    ["a random run under a credential's name", 'svc_credential = "Vb7Qm2Lx9Rk4Tz"'],
    // An environment lookup's fallback given by keyword (django-environ's `env(…, default=…)`).
    ["a lookup's fallback by keyword", 'SECRET_KEY = env("SECRET_KEY", default="Vb7Qm2Lx9Rk4Tz8Hn3Wc6Pd5")'],
    // A URL query's parameter ends at `&`, the rest of the query is not the password.
    ["a password in a URL's query, then other parameters", 'DSN="jdbc:mysql://db?user=app&password=Wint3r!Sky&useSSL=false"'],
    ["a random run under creds", "SMTP_CREDS: Hn3Wc6Pd5Vb7Qm2"],
    ["a Wi-Fi network's pre-shared key", 'network={\n  ssid="office"\n  psk="Gr33n!Tea42"\n}'],
    ["a generated value under a bare key, single-quoted", "'key': \"Vb7Qm2Lx9Rk4Tz8Hn3Wc6Pd5\""],
    ["a subscript assignment", "config['api_key'] = \"Xq7Lm2Rk9XwTz4Hn8Bc3Pd6Y\""],
    ["a credential by name", 'credential = "Xq7Lm2Rk9XwTq8Lp3Nz5"'],
    ["code inside a JSON string (a notebook cell)", '"source": ["db_password = \\"Wint3r!Sky42\\"\\n"]'],
    ["a JSON document inside a JSON string", '{\\"password\\": \\"Wint3r!Sky42\\"}'],
    ["creds by name", "creds: Xq7Lm2Rk9XwTq8Lp3Nz5"],
    ["a passcode", "passcode: 'Wint3r!Sky42'"],
    ["a qualifier after the name", "DB_PASSWORD_PROD=Wint3r!Sky42"],
    ["a qualifier after a secret", "JWT_SECRET_DEV=Xq7Lm2Rk9XwTq8Lp3Nz5"],
    ["a qualifier after a key", "api_key_live: 'Xq7Lm2Rk9XwTq8Lp3Nz5'"],
    ["Rails' secret_key_base", "secret_key_base: 7f3a9c1e7b4d4e8f9a6b2c5d8e1f0a3b7f3a9c1e7b4d4e8f"],
    ["a personal access token by its short name", "export GITHUB_PAT=Xq7Lm2Rk9XwTq8Lp3Nz5"],
    ["a vendor's name not at the name's start", "MY_BITBUCKET_KEY=4sexst19wy5l7r5875tbzcvb8a44bpds"],
    ["a YAML block value", "db:\n  password: |\n    Zq7xN3pLw9Vb\n"],
    ["a YAML folded value", "api_token: >-\n  aG7dK2pQx9LmZ3vB8nW4rT\n"],
    ["a YAML block value with a quoted name", '"client_secret": |+\n  Wint3r!Sky42'],
    ["an exported env line", "export DB_PASSWORD=Zq7xN3pLw9Vb"],
    ["an exported and quoted env line", "export API_TOKEN='aG7dK2pQx9LmZ3vB8nW4rT'"],
    ["Java properties", "db.password=Zq7xN3pLw9Vb"],
    ["Spring's datasource", "spring.datasource.password=Wint3r!Sky42"],
    ["Terraform inside a block", 'provider "vault" {\n  token = "hvq7Lm2Rk9XwTq8Lp3Nz5Bc"\n}'],
    ["Docker's -e", "docker run -e POSTGRES_PASSWORD=Zq7xN3pLw9Vb postgres:16"],
    ["Docker's --env", "docker run --env MYSQL_ROOT_PASSWORD=Wint3r!Sky42 mysql"],
    ["a Kubernetes Secret's stringData", "kind: Secret\nstringData:\n  password: Zq7xN3pLw9Vb"],
    ["an LDAP bind password", "bindDN: cn=admin,dc=corp,dc=example\nbindPassword: Zq7xN3pLw9Vb"],
    ["a PW after a separator", "ADMIN_PW=Zq7xN3pLw9Vb"],
    ["a PW in YAML", "ldap:\n  bind_pw: Wint3r!Sky42"],
    ["a cloud's SK", "HUAWEI_SK=HV3f94sMPxD7X7a7IE8xi1ztBZIMtINto8adMYXZ"],
    ["a private qualifier", "MJ_APIKEY_PRIVATE=f0c00da1ab2f2a154694ba7246b46bea"],
    ["OAuth 1's token secret", 'ACCESS_TOKEN_SECRET = "Xq7Lm2Rk9XwTq8Lp3Nz5Vb2H"'],
    [
      "a long generated value that reads like a member access",
      "app.dropbox.secret: sl.uc9j9qc6ibp9o3shh4hea07scrshrtedx78dmar8tlbo976avshm",
    ],
    // Aligned columns: gofmt's const blocks, Terraform's and config files' signs, a YAML value set apart.
    ["gofmt's aligned const block", 'const (\n\tuser       = "svc"\n\tdbPassword = "Tr7bN2qXz4"\n)'],
    ["a Terraform block's aligned signs", 'resource "x" "y" {\n  name          = "db"\n  api_key       = "Xq7Lm2Rk9XwTq8Lp3Nz5"\n}'],
    ["a YAML value set apart from its colon", "passwd:        'Zq7xN3pLw9!b'"],
  ])("%s", (_, text) => {
    expect(assignments(text)).toHaveLength(1);
  });
});

describe("not found", () => {
  test.each([
    ["an environment variable's name as its value", "DB_PASSWORD=DB_PASSWORD"],
    ["a template", 'format_password = "prefix_{}".format(value)'],
    ["Symfony's env reference", "Symfony_DB_Key: '%env(DB_SECRET_VALUE)%'"],
    ["CloudFormation's reference", '"MasterUserPassword": "!Ref \'MasterUserPassword\'"'],
    ["a URL", "write_key: 's3://{bucket}/events/dt={date}'"],
    ["a secrets lookup", 'password = secrets["password"]'],
    ["a dictionary of variables", 'data = {"login": login, "password": new_password}'],
    ["a validation schema", "password: z.string().min(12)"],
    ["a record key", "partition_key: Xq7Lm2Rk9XwTz4Hn8Bc3Pd6Y"],
    ["a public key", "public_key = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'"],
    ["a nested YAML mapping", "secret:\n  secretName: db-credentials"],
    ["a PascalCase name", "auth_token: AccessTokenProviderFactory"],
    ["a GitHub Actions expression", "password: ${{ secrets.DOCKER_PASSWORD }}"],
    ["a word that ends in pass", "compass: 'North-West 2'"],
    ["a name that says it holds no secret", "const NOT_A_PASSWORD = 'only the label, shown in the form';"],
    ["a camelCase name that says so", 'isNotSecret = "Vx7mQ2pLk9Tr"'],
    ["a name of capitalized words under a key's name", "http://svc.internal/api_key=InvalidLength12345abbbb"],
    ["hex under a bare key outside a URL", "cache key=9c1e7b4d4e8f9a6b2c5d8e1f0a3b7f3a"],
    // Typed declarations whose value is no password.
    ["a typed declaration read from the environment", "const password: string = process.env.DB_PASSWORD ?? '';"],
    ["a typed empty declaration", 'var dbPassword string = ""'],
    ["a typed placeholder", 'password: str = "changeme"'],
    ["a word after the type's place", "password: strong and unique"],
    // A bare `key` names anything: only a machine-generated value counts.
    ["a bare key naming a message", '"key": "welcome_message_title"'],
    ["a bare key holding a hex digest", '{"key": "a3f9c2e1b7d4a3f9c2e1b7d4a3f9c2e1"}'],
    ["a bare key holding a UUID", '"key": "550e8400-e29b-41d4-a716-446655440000"'],
    ["a React key", 'items.map((i) => ({ key: "UserProfileCard2024Header" }))'],
    ["a bare key with a placeholder", '"key": "YOUR_API_KEY_GOES_HERE_1234"'],
    ["a record key in a subscript", "row['sort_key'] = \"Xq7Lm2Rk9XwTz4Hn8Bc3Pd6Y\""],
    // A qualifier that says what else the value is: a hash, a location, a name.
    ["a password's hash", "password_hash = 'Xq7Lm2Rk9XwTq8Lp3Nz5'"],
    ["a token's address", "token_url: https://login.example.com/oauth2/token"],
    ["a secret's name", "secret_name: prod-db-credentials-2"],
    ["a qualified placeholder", "password_default: changeme"],
    ["a qualified variable", "PASSWORD_TEST=${TEST_PASS}"],
    ["a path, not a PAT", "db_path=/var/lib/app2"],
    ["the file holding the credentials", "credentials: service-account-2.json"],
    ["a credentials setting", "credentials: include"],
    ["a credential's name", 'credential = "default-creds-1"'],
    ["a credential's path", "CREDENTIAL=/etc/app/Creds2Key"],
    ["a pre-shared key's placeholder", 'psk="your_wifi_password"'],
    ["a pre-shared key's setting", "use_psk: true"],
    ["an escaped variable", '"password = \\"${DB_PASS}\\"\\n"'],
    // YAML blocks holding what is no value, and an interface's texts under password keys.
    ["a YAML block holding a template", "password: |\n  {{ .Values.db.password }}"],
    ["a YAML folded variable", "token: >-\n  ${API_TOKEN}"],
    ["a YAML block placeholder", "password: |\n  changeme"],
    ["a YAML block under a name of no credential", "description: |\n  The password Zq7xN3pLw9Vb is rotated monthly"],
    ["a translation's label", '"one_time_password": "Engangskode:",'],
    ["a translation's sentence", '"wrong_password": "Passordet er feil. Vennligst prøv igjen.",'],
    ["a translation's question", '"forgot_password": "Har du glemt passordet ditt?"'],
    ["Java's keystore default", "keystore.password=changeit"],
    ["a word ending in pw", "npw=Zq7xN3pLw9Vb"],
    ["a disk, not an SK", "disk=nvme0n1p2Xq7Lm2Rk9"],
    ["a cloud's AK, an identifier", "HUAWEI_AK=HV3F94SMPXD7X7A7IE8X"],
    ["a framework's shipped default", "APP_SECRET=ThisTokenIsNotSoSecretChangeIt"],
    ["a Secret's base64 placeholder", "kind: Secret\ndata:\n  password: Y2hhbmdlbWU="],
    ["a Secret's base64 documentation word", "kind: Secret\ndata:\n  password: eW91ci1wYXNzd29yZA=="],
    ["an aligned placeholder", 'const (\n\tuser     = "svc"\n\tpassword = "changeme"\n)'],
    ["an aligned variable", "  db_password        = var.db_password"],
    ["an aligned column of prose", "Password           : see the vault entry"],
    ["the word itself in a URL's query", 'DSN="jdbc:mysql://db?user=app&password=password&sql_mode=STRICT_TRANS_TABLES"'],
    ["a member access ending in the credential's word", "  pwd=instance_info.password,"],
    ["a settings' member on an env line", "SECRET=settings.SECRET_KEY"],
    ["a string's end joined to code", "';PWD='      . $this->_config['password'] .';';"],
    ["digits counted up", 'db_password = "123456"'],
    ["digits counted down", 'db_password = "987654"'],
  ])("%s", (_, text) => {
    expect(assignments(text)).toEqual([]);
  });
});
