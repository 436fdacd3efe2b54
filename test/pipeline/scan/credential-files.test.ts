/**
 * Credentials in the formats of the files that hold them: `.pgpass` lines, the password
 * hashes of `.htpasswd` and shadow files, Terraform variables' defaults, Kubernetes
 * environment lists' name and value, Dockerfiles' `ENV NAME value`, network devices' passwords and SNMP communities,
 * and Redis's `requirepass`. Written from the formats; times, paths, placeholders, variables and a
 * hash in prose stay unflagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ["pgpass_password", "db01.corp.example:5432:appdb:app:Wq8zT3pLm2"],
    ["pgpass_password", "*:*:*:postgres:Tr7bN2qXz"],
    ["pgpass_password", "# ~/.pgpass\n10.0.4.7:6432:*:report:S3cr3t!x"],
    ["pgpass_password", "localhost:5432:shop:shop:Gr33n!Tea42"],
    ["password_hash", "admin:$apr1$Zq7xN3pL$w9VbQ2mKx8TrL5nB3cD1e/"],
    ["password_hash", "deploy:$2y$10$Zq7xN3pLw9VbQ2mKx8TrL.5nB3cD1eFg7hJ9kL0mN2oP4qR6sT8uW"],
    ["password_hash", "ops:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g="],
    [
      "password_hash",
      "root:$6$Qx7pLm2R$Zq7xN3pLw9VbQ2mKx8TrL5nB3cD1eFg7hJ9kL0mN2oP4qR6sT8uWyZ1aB3cD5eF7gH9iJ1kL3mN5oP7qR9s:19700:0:99999:7:::",
    ],
    ["password_assignment", 'variable "db_password" {\n  type    = string\n  default = "Zq7xN3pLw9Vb"\n}'],
    ["password_assignment", 'variable "api_token" { default = "aG7dK2pQx9LmZ3vB8nW4rT" }'],
    ["password_assignment", "ENV DB_PASSWORD Zq7xN3pLw9Vb"],
    ["password_assignment", "env ADMIN_PW 'Gr33n!Tea42'"],
    ["password_assignment", '      env:\n        - name: DB_PASSWORD\n          value: "Wint3r!Sky42"'],
    ["password_assignment", "        - name: API_TOKEN\n          value: aG7dK2pQx9LmZ3vB8nW4rT"],
    // YAML opens a comment at a `#` after a blank only: this `#` is the password's.
    ["password_assignment", "env:\n  - name: DB_PASSWORD\n    value: Xk9#mP2vLq"],
    // A token used as a login (SonarQube's scanner reads its token from `SONAR_LOGIN`).
    ["password_assignment", "- name: SONAR_LOGIN\n  value: 3c7e9a1f5b2d8c4e6a0f9b3d7c1e5a8f2b6d0c4e"],
    // Network devices' configurations and Redis's.
    ["password_assignment", "username ops privilege 15 password 0 Zq7xN3pLw9!b"],
    ["password_assignment", "enable secret 0 Tr7bN2qXz4"],
    ["password_assignment", "line vty 0 4\n password 7 0822455D0A1606141C"],
    ["password_assignment", "snmp-server community Zq7xN3pL9 RO"],
    ["password_assignment", "bind 127.0.0.1\nrequirepass Zq7xN3pLw9!b"],
    ["password_assignment", "ftp -n files.corp.example <<EOF\nuser backup Tr7bN2qXz4\nbinary\nput db.dump\nEOF"],
    ["password_assignment", 'masterauth "Tr7bN2qXz4"'],
  ])("%s: %s", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });
});

describe("not found", () => {
  test.each([
    // A login name is no secret, whatever digits it holds; under a password's name a YAML comment ends the value.
    "- name: DB_LOGIN\n  value: jsmith1985",
    "- name: DB_PASSWORD\n  value: ${DB_PASSWORD} # from the vault",
    // Times, ratios, paths and addresses with colons.
    "12:30:45:00:start",
    "at 10:30:45:12:abc",
    "std::vector:int:a:Foo2bar",
    "localhost:5432:*:postgres:${PGPASSWORD}",
    "db01.corp.example:5432:appdb:app:changeme",
    "db01.corp.example:5432:appdb:app:*",
    // A hash named in prose, a placeholder hash, a user with no hash.
    "bcrypt hashes look like $2y$10$ followed by 53 characters",
    "admin:$apr1$xxxxxxxx$xxxxxxxxxxxxxxxxxxxxxx",
    "root:x:0:0:root:/root:/bin/bash",
    "nobody:*:19700:0:99999:7:::",
    // A variable with no default or one of no credential, Docker secrets' file convention, a variable's reference.
    'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
    'variable "token_ttl" {\n  default = "3600s"\n}',
    'variable "db_password" {\n  default = "changeme"\n}',
    "ENV PASSWORD_FILE /run/secrets/db",
    "ENV DB_PASSWORD ${DB_PASSWORD}",
    "ENV API_TOKEN changeme",
    "        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: db",
    '        - name: DB_PASSWORD\n          value: "${DB_PASSWORD}"',
    "        - name: PASSWORD_FILE\n          value: /run/secrets/db",
    "        - name: DB_PASSWORD\n          value: changeme",
    '        - name: DB_USER\n          value: "app"',
    "The password 0 means none is set",
    "enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0",
    "password 7 ZZZZ",
    "snmp-server community public RO",
    "requirepass foobared",
    "requirepass ${REDIS_PASSWORD}",
    "masterauth <master-password>",
    // A sentence about the directive (one that gives a value is a credential: credential-value-first.test.ts).
    "set requirepass to a long random value in the config file",
    "user guide for admins",
    "user backup $FTP_PASS",
    "user anonymous guest@example.com",
    "Users can change the password Zq7 later",
  ])("%s", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
