/**
 * Credentials noted down rather than configured: an address, a user and a password side
 * by side (after an IPv4 address, or a host name opening a line), a token after a two-word
 * label, a password under its name in another language, `user:pass@host` without a scheme
 * and `-u user:pass` on any command line. Written from the forms, not from held-out rows;
 * placeholders, identifiers, interface names, MAC addresses, file names and e-mail
 * addresses stay unflagged.
 */
import { describe, expect, test } from "bun:test";
import { mixedValue } from "../../../src/pipeline/scan/credential-notes.ts";
import { scanText } from "../../../src/pipeline/scan/engine.ts";

const findings = (text: string) => scanText(text, { injection: false }).findings.map((f) => `${f.category}:${f.kind}`);
const secretKinds = (text: string) => findings(text).filter((k) => k.startsWith("secret:"));

describe("credentials noted down are found", () => {
  test.each([
    ["address_user_password", "10.20.30.40 admin Wint3r!Sky"],
    ["address_user_password", "prod db: 172.16.4.9:5432, postgres, Xq7Lm2Rk9"],
    ["address_user_password", "IP/user/pass 10.0.8.15/root/Gr33n_Tea42"],
    ["address_user_password", "router 192.168.1.254 | admin | Pa55_w0rd!"],
    ["address_user_password", "db01.corp.example:5432 admin / S3cr3t!x"],
    ["address_user_password", "vpn.corp.example, ops, Gr33n!Tea42"],
    ["address_user_password", "build.corp.example admin/Wq8zT3pLm"],
    ["address_user_password", "cache.corp.net:6379 | default | Xq7Lm2Rk9!"],
    ["address_user_password", "jump:\n  bastion.corp.example:22 root Tr0ub4dor3x"],
    ["password_assignment", "Session token hQ8zLm2Rk9XwTq4P"],
    ["password_assignment", "Access key: Zt7Qp2Lm9Rk4XwB8"],
    ["password_assignment", "the API key is Xq7Lm2Rk9XwTq8Lp"],
    ["password_assignment", "Bot token = kP3mZq8Lr2Wt9XvN4b"],
    ["password_assignment", "api key = 7f3a9c1e7b4d4e8f9a6b2c5d8e1f0a3b"],
    ["password_assignment", "Access token: 9F3A2C1E7B4D4E8F9A6B2C5D8E1F0A3B"],
    ["password_assignment", "서버 접속 정보 비밀번호 : Gr33n!Tea42"],
    ["password_assignment", "관리자 비밀번호는 Wint3r!Sky42 입니다"],
    ["password_assignment", "パスワード：Xq7Lm2Rk9"],
    ["password_assignment", "数据库密码: Wint3r!Sky42"],
    ["password_assignment", "пароль: Gr33n!Tea42"],
    ["password_assignment", "Passwort: Wint3r!Sky42"],
    ["password_assignment", "mot de passe : Gr33n!Tea42"],
    ["password_assignment", "senha: Xq7Lm2Rk9!"],
    ["password_assignment", "VPN PW: Wint3r!Sky42"],
    // A chosen password of letters and digits under a label with a sign, as English's `password: …` counts.
    ["password_assignment", "Passwort: sommer2023"],
    ["password_assignment", "mot de passe : azerty123"],
    ["password_assignment", "ID: admin, PW: qwerty123"],
    ["password_assignment", "비밀번호: qwer1234"],
    ["generic_credential", "heslo: zima2024x"],
    ["url_credentials", "ssh deploy:Xq7Lm2Rk@build.corp.net"],
    ["url_credentials", "git clone ops:Gr33n!Tea42@10.0.0.5:repo.git"],
    ["url_credentials", "psql postgres:Wint3r!Sky42@localhost"],
    ["command_line_secret", "wget --user=ops:Gr33n!Tea42 http://files.corp.net/a.zip"],
    ["command_line_secret", "http --auth admin:S3cur3Pass! GET api.corp.net/items"],
    ["command_line_secret", "svn checkout -u builder:Tr0ub4dor3x https://svn.corp.net/trunk"],
  ])("%s: %s", (kind, text) => {
    expect(secretKinds(text)).toContain(`secret:${kind}`);
  });
});

describe("what only resembles them is not", () => {
  test.each([
    // Placeholders.
    "10.20.30.40 admin changeme",
    "10.20.30.40 admin <password>",
    "10.20.30.40 admin ${DB_PASSWORD}",
    "10.20.30.40 admin your-password-here",
    "10.20.30.40 admin ********",
    "Session token <token>",
    "the API key is xxxxxxxxxxxxxxxx",
    "ssh deploy:changeme@build.corp.net",
    "wget --user=ops:${PASSWORD} http://files.corp.net/a.zip",
    // Network output: routes, ARP tables, interfaces, hosts files, logs.
    "10.0.0.0 dev enp0s31f6 proto kernel scope link",
    "default via 192.168.1.1 dev wlp3s0b1 proto dhcp metric 600",
    "192.168.1.1 ether 00:1a:2b:3c:4d:5e C eth0",
    "127.0.0.1 localhost localhost.localdomain",
    "10.0.0.5 web01 web01.corp.example.com",
    "10.0.0.5 GET /api/v1/users 200",
    "inet 192.168.1.5 netmask 255.255.255.0 broadcast 192.168.1.255",
    // A host name opening a sentence, a file name, a path, a host with no user or password beside it.
    "api.github.com returns JSON2x",
    "www.corp.example admin Xq7Lm2Rk9",
    "app.module.ts imports AppComponent2",
    "jquery.min.js loads Plugin3x",
    "docs.python.org/3/library os/Path2x",
    "db01.corp.example:5432 admin / changeme",
    "db01.corp.example:5432 admin / ${DB_PASSWORD}",
    "web01.corp.example.com 10.0.0.5 Up3x",
    "registry.corp.example:5000/team/app:v2.1.0",
    // Identifiers and code after a label.
    "Session token GetTokenAsync2",
    "access key arn:aws:iam::123456789012:user/ops",
    "the API key is stored in Vault",
    "client key 3f2a9c1e-7b4d-4e8f-9a6b-2c5d8e1f0a3b",
    "api key 00000000000000000000000000000000",
    "API key abcdefabcdefabcdefabcdefabcdefab",
    // A password's rules or a placeholder under its name in another language.
    "비밀번호는 영문과숫자조합8자이상",
    "비밀번호를 잊어버렸어요",
    "密码：<your-password>",
    "Passwort: ********",
    "Passwort: geheim",
    "Passwort: 12345678",
    "PW: v1.2.3-beta",
    "senha: changeme123",
    "Passwort: abc1",
    "Please set PW: at least 8 chars",
    // Users and groups, not passwords.
    "docker run -u 1000:1000 alpine",
    "docker run -u www-data:www-data nginx",
    "git push -u origin main",
  ])("%s", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });

  test("an e-mail after a label is personal data, not a password", () => {
    expect(findings("Email:Alice2024@corp.com")).toEqual(["pii:EMAIL"]);
    expect(findings("call:jane.doe@corp-mail.example.com")).toEqual(["pii:EMAIL"]);
    expect(findings("10.0.0.1 admin john.doe@example.com")).toEqual(["pii:EMAIL"]);
  });

  test("a known vendor key after a label keeps its own name", () => {
    expect(secretKinds("API key AKIAZ7QP2LM9RK4XWB8N")).toEqual(["secret:aws_access_key_id"]);
  });
});

describe("mixedValue", () => {
  test.each([
    ["iP30dT_o", true],
    ["Wint3r!Sky", true],
    ["enp0s31f6", false],
    ["00:1a:2b:3c:4d:5e", false],
    ["web01.corp.example.com", false],
    ["password1", false],
    ["Passw0rd", true],
  ])("%s: %p", (value, expected) => {
    expect(mixedValue(value)).toBe(expected);
  });
});
