/**
 * Passwords handed to a tool: short flags after the tools that read them as passwords,
 * SQL's IDENTIFIED BY and WITH PASSWORD, login and connection calls and setters with
 * literals, signing keys written into the call, `#define`d credentials. Written
 * from the tools' documented usage; prompts, ports, variables and placeholders stay unflagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ["command_line_secret", "mysql -h db -u root -pWint3r!Sky42 shop"],
    ["command_line_secret", "mysqldump -uroot -p'Gr33n Tea!' shop > shop.sql"],
    ["command_line_secret", "sshpass -p 'Wint3r!Sky42' ssh root@host"],
    ["command_line_secret", "docker login -u ci -p Xq7Lm2Rk9XwT registry.corp.net"],
    ["command_line_secret", "mongosh -u admin -p Wint3r!Sky42 --authenticationDatabase admin"],
    ["command_line_secret", "redis-cli -h cache -p 6379 -a Wint3r!Sky42 ping"],
    ["command_line_secret", "ldapsearch -x -D cn=admin,dc=corp -w Wint3r!Sky42 -b dc=corp"],
    ["command_line_secret", "keytool -importcert -keystore ks.jks -storepass Wint3r!Sky42 -file ca.pem"],
    ["command_line_secret", "net use \\\\srv\\share /user:CORP\\ops Wint3r!Sky42"],
    ["command_line_secret", "aws configure set aws_secret_access_key Xq7Lm2Rk9XwTq8Lp3Nz5Vb2Hm6Kd4Qp9Rk3Lm7X"],
    ["command_line_secret", "set -gx OPENAI_TOKEN Xq7Lm2Rk9XwTq8Lp3Nz5"],
    ["command_line_secret", "yarn config set npmAuthToken Xq7Lm2Rk9XwTq8Lp3Nz5"],
    ["command_line_secret", "git config --global user.password Wint3r!Sky42"],
    ["command_line_secret", "gh secret set DEPLOY_KEY --body Xq7Lm2Rk9XwTq8Lp3Nz5"],
    ["password_assignment", "//npm.corp.net/repository/npm/:_authToken=Xq7Lm2Rk9XwTq8Lp3Nz5Vb2H"],
    ["password_assignment", "CREATE USER app@'%' IDENTIFIED BY 'Wint3r!Sky42';"],
    ["password_assignment", "ALTER ROLE report WITH ENCRYPTED PASSWORD 'Gr33n!Tea42';"],
    ["password_assignment", 'ds.setPassword("Wint3r!Sky42");'],
    ["credential_constructor", "server.login('ops', 'Wint3r!Sky42')"],
    ["credential_constructor", '$client->login("admin", "Gr33n!Tea42");'],
    ["credential_constructor", 'conn.simple_bind_s("cn=admin,dc=corp", "Wint3r!Sky42")'],
    ["command_line_secret", "pscp -pw Wint3r!Sky42 backup.tar admin@db01:/tmp"],
    ["command_line_secret", "plink -ssh ops@db01 -pw 'Gr33n Tea!' uptime"],
    ["command_line_secret", "smbclient //fs01/share -U admin%Wint3r!Sky42"],
    ["command_line_secret", "net user svc_backup Gr33n!Tea42 /add"],
    ["command_line_secret", "htpasswd -b /etc/nginx/.htpasswd admin Wint3r!Sky42"],
    ["command_line_secret", "htpasswd -nb ops Gr33n!Tea42"],
    ["command_line_secret", 'echo "Wint3r!Sky42" | docker login -u ci --password-stdin registry.corp.net'],
    ["command_line_secret", "echo -n 'Xq7Lm2Rk9XwT' | helm registry login reg.corp.net -u ci --password-stdin"],
    ["command_line_secret", "echo 'ops:Gr33n!Tea42' | sudo chpasswd"],
    ["command_line_secret", "az login -u ops@corp.example -p Wint3r!Sky42"],
    ["command_line_secret", "sqlcmd -S db01 -U sa -P Gr33n!Tea42 -Q 'select 1'"],
    ["command_line_secret", "bcp dbo.orders out orders.dat -S db01 -U sa -P Xq7Lm2Rk9!"],
    ["command_line_secret", "zip -P Wint3r!Sky42 backup.zip db.sql"],
    ["command_line_secret", "ssh-keygen -t ed25519 -N 'Gr33n!Tea42' -f id_ed25519"],
    ["command_line_secret", "openssl enc -aes-256-cbc -k Xq7Lm2Rk9! -in a.tar -out a.enc"],
    ["command_line_secret", "ngrok config add-authtoken 2Qx7pLm2R9aB3cD5eF7gH1jK_4hGfDsA2qW3eR5tY6u"],
    ["credential_constructor", 'mysql_connect("localhost", "root", "Wint3r!Sky42");'],
    ["credential_constructor", '$db = mysqli_connect("db01", "app", "Gr33n!Tea42", "shop");'],
    ["credential_constructor", 'new PDO("mysql:host=db01;dbname=shop", "root", "Xq7Lm2Rk9!");'],
    ["credential_constructor", 'DriverManager.getConnection(url, "sa", "Wint3r!Sky42");'],
    ["hardcoded_signing_key", 'jwt.encode(payload, "Qx7pLm2R9aB3cD5eF7gH", algorithm="HS256")'],
    ["hardcoded_signing_key", "jwt.sign(payload, 'k8Zq2Lm9Rt4Wx7Np3Vb6')"],
    ["hardcoded_signing_key", 'hmac.new(b"Qx7pLm2R9aB3cD5eF7gH", msg, hashlib.sha256)'],
    ["hardcoded_signing_key", 'crypto.createHmac("sha256", "Qx7pLm2R9aB3cD5eF7gH")'],
    ["hardcoded_signing_key", 'Fernet(b"Zq7xN3pLw9VbQ2mKx8TrL5nB3cD1eFg7hJ9kL0mN2oP=")'],
    ["hardcoded_signing_key", 'AES.new(b"Zq7xN3pLw9VbQ2mK", AES.MODE_GCM)'],
    ["password_assignment", '#define WIFI_PASSWORD "Gr33n!Tea42"'],
    ["password_assignment", '#define MQTT_TOKEN "Xq7Lm2Rk9XwTq8Lp3Nz5"'],
    ["password_assignment", "  getSecret: () => 'Qx7pLm2R9aB3cD5eF7gH',"],
    ["password_assignment", 'public String getPassword() { return "Wint3r!Sky42"; }'],
    ["password_assignment", 'def get_api_key(self):\n        return "aG7dK2pQx9LmZ3vB8nW4rT"'],
  ])("%s in %p", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });
});

describe("not found", () => {
  test.each([
    // mysql's bare -p asks for the password; the next word is the database.
    "mysql -u root -p shop",
    "mongosh -u admin -p --authenticationDatabase admin",
    // -p is a port or a publish flag for other tools.
    "docker run -p 8080:80 nginx",
    "ssh -p 2222 deploy@host",
    "redis-cli -h cache -p 6379 ping",
    // Variables, prompts and placeholders.
    "docker login -u ci -p $CI_REGISTRY_PASSWORD registry.corp.net",
    'sshpass -p "$SSH_PASS" ssh root@host',
    "keytool -list -keystore ks.jks -storepass changeit",
    "mysql -u root -p<password> shop",
    "CREATE USER app IDENTIFIED BY '<password>';",
    "ALTER USER x WITH PASSWORD '${PG_PASS}';",
    'ds.setPassword("password");',
    "server.login(user, password)",
    "server.login('ops', getpass())",
    "Enter the password 'changeme' to log in.",
    // An example password discussed in prose, not SQL's WITH PASSWORD.
    "Check that the new password 'Tr0ub4dor&3' meets the policy before saving it.",
    "net use \\\\srv\\share /user:CORP\\ops *",
    // Settings that are not credentials, values that are variables or calls, and prose.
    "config set cache_key user42profileX",
    "config set token_ttl 3600",
    "set -gx GITHUB_TOKEN (gh auth token)",
    'gh secret set API_TOKEN --body "$TOKEN"',
    "Set the secret token variable before deploying.",
    "set the password field to something strong",
    "//npm.corp.net/:_authToken=${NPM_TOKEN}",
    // Prompts, switches and variables where the new tools take a password.
    "net user admin * /add",
    "net user admin /active:yes",
    "net user /domain",
    "htpasswd -c /etc/nginx/.htpasswd admin",
    "htpasswd -b /etc/nginx/.htpasswd admin changeme",
    'echo "$DOCKER_PASSWORD" | docker login -u ci --password-stdin',
    "echo $CR_PAT | docker login ghcr.io -u ops --password-stdin",
    'echo "hello world" | chpasswd',
    "smbclient -L //fs01 -U guest%",
    'zip -r backup.zip dir -x "*.log"',
    "zip -P $ZIP_PASSWORD out.zip a",
    "ssh-keygen -t ed25519 -N '' -f id_ed25519",
    "openssl s_client -connect host:443 -k",
    'sqlcmd -S db01 -E -Q "select 1"',
    "Send me the zip file. -P is the flag for a password.",
    // Keys and passwords read from variables, documentation's example keys, macros of no credential.
    'mysqli_connect("db01", "app", $password, "shop")',
    "DriverManager.getConnection(url, user, password);",
    'jwt.encode(payload, SECRET_KEY, algorithm="HS256")',
    "jwt.sign(payload, 'your-256-bit-secret')",
    'jwt.decode(token, "secret", algorithms=["HS256"])',
    "hmac.new(key, msg, hashlib.sha256)",
    'Fernet(os.environ["FERNET_KEY"])',
    '#define PASSWORD_LENGTH "12"',
    '#define TOKEN_URL "https://auth.corp.example/token"',
    "getToken() {\n  return process.env.TOKEN;\n}",
    'const getSecret = async () => fetchSecret("db")',
    "getPassword() { return this.password; }",
    'getTokenUrl() { return "https://auth.corp.example/token"; }',
    'getSecretName() { return "prod-db"; }',
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
