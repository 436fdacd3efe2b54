/**
 * Credentials in generic forms: connection strings, `.netrc`, credential constructors,
 * named password assignments, Basic auth in URLs and headers, PEM and PuTTY keys,
 * signed JWTs. Placeholders, code that reads a value from elsewhere, and identifiers
 * (bucket names, ARNs, account ids) are not credentials.
 */
import { describe, expect, test } from "bun:test";
import { passwordValue } from "../../../src/pipeline/scan/credential-forms.ts";
import { secretKinds } from "./fixture-scans.ts";

const PEM_BODY = "MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB";
const basic = (userPass: string) => btoa(userPass);

describe("generic forms are found", () => {
  test.each([
    ["url_credentials", "DATABASE_URL=postgres://app:Tr0ub4dor3@db.internal:5432/app"],
    ["url_credentials", "mongodb+srv://admin:S3cure!Pass@cluster0.mongodb.net/test"],
    ["url_credentials", "REDIS_URL=redis://:p4ssW0rdX@cache:6379/0"],
    ["url_credentials", "spring.datasource.url=mysql://root:hunter22x@localhost/shop"],
    ["url_credentials", "pip install --index-url https://deploy:Gh7kLm2pQx@pypi.corp.net/simple pkg"],
    ["password_assignment", "Driver={ODBC Driver 17 for SQL Server};Server=tcp:db.corp.net;Database=sales;Uid=app;Pwd=Qx7!rT2p;"],
    ["password_assignment", "Server=myServer;Database=myDB;User Id=sa;Password=Str0ng!Pass;"],
    ["password_assignment", "jdbc:sqlserver://db:1433;databaseName=crm;user=report;password=Wint3r!x;"],
    ["netrc_password", "machine api.corp.net login deploy password Tr0ub4dor&3"],
    ["netrc_password", "machine ftp.corp.net\n  login deploy\n  password Qz8!mK2pLx"],
    ["credential_constructor", 'var cred = new NetworkCredential("svc_backup", "Winter2024!");'],
    ["credential_constructor", 'client.Credentials = new NetworkCredential(userName: "ops", password: "Gr33n!Tea");'],
    ["credential_constructor", "requests.get(url, auth=('admin', 'Gr33nTea!'))"],
    ["credential_constructor", 'new UsernamePasswordCredentials("jenkins", "J3nk1ns!2024")'],
    ["credential_constructor", "$pw = ConvertTo-SecureString 'P@ssw0rd2024!' -AsPlainText -Force"],
    ["credential_constructor", "ConvertTo-SecureString -String -Force Qz8!mK2pLx"],
    ["credential_constructor", '"ConvertTo-SecureString \\"Gr33n~Tea42\\""'],
    ["command_line_secret", "mysql -u root --password Wint3rSky42 shop"],
    ["password_in_prose", "Hi team, my password is 237dg546fs9 but the VPN still refuses it"],
    ["password_in_prose", "The default pwd was Tr0ub4dor3."],
    ["password_assignment", '{\n"kerberos_authentication": "YIDIB6wYJgaMgHAgIKoZICAQBuIhvcSAQIB1qA"\n}'],
    ["command_line_secret", "gpg --batch --passphrase 'correct horse battery' -d backup.gpg"],
    ["command_line_secret", "mycli deploy --api-key Xq7Lm2Rk9XwTz4Hn8Bc3 --region eu"],
    ["password_assignment", "'password' => 'Sup3rS3cret!',"],
    ["password_assignment", "  password: hunter22x"],
    ["password_assignment", "PASSWORD=Tr0ub4dor3"],
    ["password_assignment", 'db_password = "correct horse battery staple"'],
    ["password_assignment", "CARGO_REGISTRY_TOKEN=K9mQ2vL7pR4tW8nB3cF6hJ1dG5sA0zE9"],
    ["password_assignment", 'spring.datasource.password: "Pr0d!Db#2024"'],
    ["authorization_header", `curl -H 'Authorization: Basic ${basic("admin:S3cur3Pass!")}' https://api.corp.net`],
    ["authorization_header", 'headers = {"Authorization": "Bearer 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c"}'],
    ["xml_password", "<server><id>nexus</id><username>ci</username><password>Qz8!mK2pLx</password></server>"],
    ["xml_password", "<o1_db_passwords>Tr0ub4dor3</o1_db_passwords>"],
    // Maven's encrypted server password and master password (Maven's "Password Encryption" guide).
    ["maven_encrypted_password", "<server><id>central</id><username>deploy</username><password>{COQLCE6DU6GtcS5P=}</password></server>"],
    [
      "maven_encrypted_password",
      "<settingsSecurity>\n  <master>{jSMOWnoPFgsHVpMvz5VrIt5kRbzGpI8u+9EF1iFQyJQ=}</master>\n</settingsSecurity>",
    ],
    ["docker_auth", `{"auths": {"registry.corp.net": {"auth": "${basic("ci:Gr33n!Tea42")}"}}}`],
    ["curl_basic_auth", "curl --tlspassword Qz8!mK2pLx --cert client.pem https://api.corp.net"],
    ["url_token", `git remote add origin https://${"k3xq7w2bmzj5yq4hva6tdc2lrp7uo3nexs5gwfy2ktqhvbm6rja4"}@dev.azure.com/org/p/_git/r`],
    ["private_key", `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`],
    [
      "private_key",
      `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----`,
    ],
    [
      "putty_private_key",
      "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIO\nPrivate-Lines: 1\nAAAAIGx8kT3p9R2nQ7vLm2Rk9XwTz4Hn8Bc3",
    ],
    ["authorization_header", "Authorization: Token 9f3Xq7Lm2Rk9XwTq8Lp3Nz5Vb2H"],
    ["authorization_header", 'headers = {"Authorization": "Bot Xq7Lm2Rk9XwTq8Lp3Nz5Vb2H"}'],
    ["authorization_header", "Authorization: SSWS 00Xq7Lm2Rk9XwTq8Lp3Nz5Vb2Hm6Kd4Qp9Rk3L"],
    ["authorization_header", "authorization: sso-key Xq7Lm2Rk9XwT:Lp3Nz5Vb2Hq8"],
    ["xml_password", '<add key="ApiKey" value="Xq7Lm2Rk9XwTq8Lp3Nz5" />'],
    ["xml_password", '<property name="password" value="Wint3r!Sky42"/>'],
    ["xml_password", '<entry key="db.password">Wint3r!Sky42</entry>'],
    [
      "private_key",
      '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20240101"\nP2/56wAAA+4AAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0e3JzYS1wa2NzMXYyLW9hZXB9fQ==\n---- END SSH2 ENCRYPTED PRIVATE KEY ----',
    ],
    [
      "private_key",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----",
    ],
    [
      "private_key",
      "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI3x7Zb0Me2WQCAggAMAwG\n-----END ENCRYPTED PRIVATE KEY-----",
    ],
    [
      "private_key",
      "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGVxN3EBCADpm8aB5rT2dG3k1xW9pLzQ7nVbY4cH6jE0sR2uK8aTwQyNTUxOQAA\n-----END PGP PRIVATE KEY BLOCK-----",
    ],
    ["password_assignment", "jdbc:postgresql://db01:5432/app?user=app&password=Zq7xN3pLw9Vb"],
    ["password_assignment", "Server=tcp:db01,1433;Database=app;User Id=app;Pwd=Zq7xN3pLw9Vb;"],
    ["url_credentials", "redis://:Zq7xN3pLw9Vb@cache01:6379/0"],
    ["url_credentials", "amqp://app:Zq7xN3pLw9Vb@mq01:5672/vhost"],
    ["url_credentials", "mongodb+srv://app:Zq7xN3pLw9Vb@cluster0.ab1cd.mongodb.net/app"],
    ["url_credentials", "https://octocat:Zq7xN3pLw9Vb@github.com"],
    ["url_credentials", 'sql.Open("mysql", "app:Zq7xN3pLw9Vb@tcp(db01:3306)/shop")'],
    ["url_credentials", "jdbc:oracle:thin:scott/Zq7xN3pLw9Vb@db01:1521:ORCL"],
    ["url_credentials", "sqlplus system/Zq7xN3pLw9Vb@localhost:1521/ORCL"],
    ["kubernetes_secret_yaml", "kind: Secret\ntype: Opaque\ndata:\n  db-pass: WnE3eE4zcEx3OVZi"],
    [
      "jwt",
      "Authorization header value eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ],
    ["authorization_header", "Proxy-Authorization: Basic c3ZjOlpxN3hOM3BMdzkhYg=="],
    // .NET's and PowerShell's credential objects, a blank before the parenthesis as PowerShell writes it.
    ["credential_constructor", '$c = New-Object System.Management.Automation.PSCredential ("CORP\\svc", "Tr7bN2qXz4");'],
    ["credential_constructor", 'var c = new SqlCredential("app", "Zq7xN3pLw9!b");'],
    ["credential_constructor", 'new UserPasswordCredential("ops@corp.example", "Tr7bN2qXz4")'],
    // A chosen password that ends in a repeated digit keeps it.
    ["credential_constructor", '$p = ConvertTo-SecureString -String "winter_TEA0000" -AsPlainText -Force'],
  ])("%s in %p", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });
});

describe("placeholders, code and identifiers are not", () => {
  test.each([
    "password: changeme",
    "PASSWORD=${DB_PASSWORD}",
    "password: <token>",
    "password=***",
    "password: your-password",
    "password: example",
    "DB_PASSWORD=xxxxxxxx",
    "password: string",
    "password = getpass()",
    "user.password = req.body.password",
    "const password = userInput;",
    "The function takes a password: it must be 12 characters.",
    "DATABASE_URL=postgres://user:password@localhost:5432/db",
    "postgres://app:${PGPASSWORD}@db/app",
    "Server=db;Database=app;User Id=sa;Password=<your-password>;",
    'new NetworkCredential("user", "password")',
    "machine example.com login USER password PASSWORD",
    `Authorization: Basic ${basic("username:password")}`,
    "Authorization: Bearer <token>",
    "Authorization: Bearer $TOKEN",
    "Authorization: Token <your-token>",
    "Authorization: Bot YOUR_BOT_TOKEN_HERE",
    "the Authorization: Token header carries the key",
    "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
    "What does -----BEGIN RSA PRIVATE KEY----- mean at the top of a file?",
    "PuTTY-User-Key-File-3 is the header of a .ppk file.",
    "<password>${env.NEXUS_PASSWORD}</password>",
    "<password>{xxxxxxxxxxxxxxxxxxxx}</password>",
    "<master>{}</master>",
    '<property name="password" value="${db.password}"/>',
    '<add key="ApiKey" value="YOUR_API_KEY" />',
    '<add key="TokenEndpoint" value="https://login.example.com/oauth2/token" />',
    '<property name="hibernate.connection.password" value="changeme"/>',
    "</o2_hardcoded_passwords>",
    `"auth": "${basic("username:password")}"`,
    "curl --tlspassword $TLS_PASSWORD https://api.corp.net",
    "$s = ConvertTo-SecureString $plain -AsPlainText -Force",
    "ConvertTo-SecureString converts plain text to secure strings.",
    "use the --token flag to pass it",
    "mysql --password $DB_PASSWORD",
    "--password <password>",
    "backup --password-file /etc/backup.pw",
    "the password is wrong.",
    "The password is stored in Vault.",
    "My password is 'correcthorsebatterystaple'.",
    "your password is 12345678",
    "authentication: required",
    "auth_method: authentication_token_v2",
    // Identifiers: they name a resource or an account and grant nothing alone.
    "arn:aws:iam::123456789012:role/deploy",
    "AWS_ACCOUNT_ID=123456789012",
    "s3://my-app-assets-prod/uploads/2024/",
    "bucket: my-company-logs-2024",
    "AZURE_CLIENT_ID=0f3c2d9e-4b1a-4c8e-9f7d-2a6b5c4d3e1f",
    "aws_account_id: '123456789012'",
    // A slash before an address, a package version, a Go DSN with a variable, a key's header alone.
    "Contact sales/Support1@corp.example",
    "see lib/Foo2bar@1.2.3:8080",
    'sql.Open("mysql", "app:${PASS}@tcp(db01:3306)/shop")',
    "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----",
    // A Secret's data that decodes to a placeholder (`changeme`, `your-password-here`).
    "kind: Secret\ndata:\n  api-token: Y2hhbmdlbWUtY2hhbmdlbWU=",
    "kind: Secret\ndata:\n  db-pass: eW91ci1wYXNzd29yZC1oZXJl",
    // The word itself numbered, a fixture's or a template's stand-in, in a connection string and a call.
    "Server=db01; Database=shop; Uid=app; Pwd=password_1;",
    'new PDO("sqlsrv:server=db01", "app", "password3");',
    // SQL Server's JDBC URL: a port and properties before a user's `@`, no password.
    "jdbc:sqlserver://db01.corp.example:1433;database=shop;user=app@corp-db;password=password1;encrypt=true;",
    // The specifications' example of a Basic credential, `Aladdin:open sesame` (and its spelling without a blank).
    "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
    'const BASIC_AUTH_HEADER = "Authorization: Basic QWxhZGRpbjpPcGVuU2VzYW1l"',
    // NuGet's password setting holding a build variable, its quotes escaped.
    '<add key=\\"Password\\" value=\\"$(feed.password.value)\\" />',
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});

describe("a chosen password", () => {
  test("is any real value when quoted, and not a type, an identifier or a call when not", () => {
    expect(passwordValue("Summer2024!", false)).toBe(true);
    expect(passwordValue("correct horse battery", true)).toBe(true);
    for (const code of ["userInput", "req.body.password", "getPassword()", "str", "None", "${PW}", "<password>", "****"])
      expect(passwordValue(code, false)).toBe(false);
  });

  test("a character repeated over half of it is a placeholder, a repeated tail of a longer one is not", () => {
    for (const placeholder of ["pass0000", "xxxxxxxx", "1111", "password1", "Pwd_2"]) expect(passwordValue(placeholder, true)).toBe(false);
    for (const chosen of ["winter_TEA0000", "Tr7bN2qXz4000"]) expect(passwordValue(chosen, true)).toBe(true);
  });

  test("words that name the value for what it is are a label, not a password", () => {
    for (const label of ["emails_secret", "db-password", "my_api_key", "smtp_pw"]) expect(passwordValue(label, true)).toBe(false);
    for (const chosen of ["winter_tea_garden", "Tr7b_secret_N2q", "secretive-otter-42"]) expect(passwordValue(chosen, true)).toBe(true);
  });
});
