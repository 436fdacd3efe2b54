/**
 * A user and a password handed as literals to library calls (credential-calls.ts), Oracle's
 * tools' `user/password`, a Wi-Fi QR code's text, a Windows answer file's passwords, and setters and builders
 * named after a password.
 * Written from the libraries' and formats' documented forms; variables, calls, empty and
 * documentation values stay unflagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ["credential_constructor", 'restTemplateBuilder.basicAuthentication("reports", "Tr7bN2qXz4").build()'],
    // A wallet's private key handed to its signer.
    ["private_key", "const wallet = new ethers.Wallet('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318')"],
    ["private_key", 'acct = Account.from_key("8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f")'],
    // Setters and builders named after a password.
    ["password_assignment", 'DataSourceBuilder.create().username("app").withPassword("Tr7bN2qXz4").build()'],
    ["password_assignment", 'MongoCredential.builder().password("Zq7xN3pLw9!b")'],
    ["password_assignment", 'keyring.set_password("billing-api", "svc", "Tr7bN2qXz4")'],
    ["password_assignment", 'ds.setPassword("Zq7xN3pLw9!b");'],
    ["credential_constructor", 'headers.setBasicAuth("svc", "Zq7xN3pLw9!b");'],
    ["credential_constructor", 'req.SetBasicAuth("svc", "Tr7bN2qXz4")'],
    ["credential_constructor", 'given().auth().basic("svc", "Zq7xN3pLw9!b").when().get("/orders")'],
    ["credential_constructor", 'given().auth().preemptive().basic("svc", "Tr7bN2qXz4")'],
    ["credential_constructor", 'client.setCredentials("svc", "Tr7bN2qXz4")'],
    ["credential_constructor", 'String c = Credentials.basic("svc", "Zq7xN3pLw9!b");'],
    ["credential_constructor", 'a := smtp.PlainAuth("", "alerts@corp.example", "Tr7bN2qXz4", "smtp.corp.example")'],
    ["credential_constructor", 'a := smtp.CRAMMD5Auth("alerts", "Zq7xN3pLw9!b")'],
    ["credential_constructor", 'ftp = ftplib.FTP("ftp.corp.example", "backup", "Tr7bN2qXz4")'],
    ["credential_constructor", 'c = ldap3.Connection(srv, "cn=admin,dc=corp,dc=example", "Zq7xN3pLw9!b", auto_bind=True)'],
    ["credential_constructor", 'ftp_login($ftp, "backup", "Tr7bN2qXz4");'],
    ["credential_constructor", "ldap_bind($ds, 'cn=admin,dc=corp', 'Zq7xN3pLw9!b');"],
    ["credential_constructor", "Net::SMTP.start('smtp.corp.example', 587, 'corp.example', 'alerts', 'Tr7bN2qXz4', :plain)"],
    ["authorization_header", 'new AuthenticationHeaderValue("Basic", "c3ZjOlpxN3hOM3BMdzkhYg==")'],
    ["command_line_secret", "sqlplus system/Tr7bN2qXz4@db01/ORCLPDB1"],
    ["command_line_secret", "expdp -s admin/Zq7xN3pLw9!b schemas=shop directory=dp"],
    ["password_assignment", "WIFI:S:Office-5G;T:WPA;P:Tr7bN2qXz4;;"],
    // A certificate's or a key store's password written into the call that opens it.
    ["password_assignment", 'var cert = new X509Certificate2("client.pfx", "Tr7bN2qXz4", X509KeyStorageFlags.Exportable);'],
    ["password_assignment", 'X509Certificate2 cert = new X509Certificate2(\n    rawData,\n    "Zq7xN3pLw9!b");'],
    ["password_assignment", 'keyStore.load(in, "Tr7bN2qXz4".toCharArray());'],
    ["password_assignment", 'Key k = keyStore.getKey("signing", "Zq7xN3pLw9!b".toCharArray());'],
    ["xml_password", "<AdministratorPassword>\n  <Value>Zq7xN3pLw9!b</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>"],
  ])("%s in %p", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });
});

describe("not found", () => {
  test.each([
    'smtp.PlainAuth("", user, password, host)',
    "user.password(newPassword)",
    "new ethers.Wallet(process.env.PRIVATE_KEY)",
    "new ethers.Wallet('0x0000000000000000000000000000000000000000000000000000000000000000')",
    "const tx = await provider.getTransaction('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318')",
    'form.password("Enter your password")',
    'keyring.set_password("billing-api", "svc", password)',
    'builder.withPassword("")',
    'builder.withPassword("changeme")',
    'smtp.PlainAuth("", "alerts@corp.example", os.Getenv("SMTP_PASS"), host)',
    'builder.basicAuthentication("api", System.getenv("API_PW"))',
    'builder.basicAuthentication("user", "password")',
    'req.SetBasicAuth(user, pass)',
    'given().auth().basic("user", "changeme")',
    'chart.basic("Revenue", "Q3")',
    'Credentials.basic("user", "changeme")',
    'ftplib.FTP("ftp.corp.example", "anonymous", "")',
    "ftp_login($conn, $user, $pass);",
    'ftp_login($conn, "anonymous", "guest@example.com");',
    "sqlplus / as sysdba",
    'new X509Certificate2("client.pfx", password)',
    'new X509Certificate2("client.pfx", "changeme")',
    'keyStore.load(in, "changeit".toCharArray());',
    'settings.load(file, "Tr7bN2qXz4");',
    "sqlplus -s $DB_USER/$DB_PASS@ORCL",
    "The sqlplus tool reads user/pass from the login file",
    "WIFI:S:Cafe;T:nopass;P:;;",
    "WIFI:S:Guest;T:WPA;P:password;;",
    "<Password><Value>*SENSITIVE*DATA*DELETED*</Value></Password>",
    "<AdministratorPassword><Value>${ADMIN_PASSWORD}</Value></AdministratorPassword>",
    'new AuthenticationHeaderValue("Basic", Convert.ToBase64String(bytes))',
    "Net::SMTP.start(addr, port, helo, user, secret, :login)",
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
