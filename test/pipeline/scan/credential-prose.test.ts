/**
 * Passwords told in chat and notes without a sign: after the word itself, after what the
 * password is for, a user and a password after a label, a bare Bearer token. Written from
 * the forms; sentences about passwords, quoted examples, words and identifiers stay unflagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ["password_in_prose", "username admin, password Qx7pLm2R9"],
    ["password_in_prose", "Password - Wint3r!Sky42"],
    ["password_in_prose", "vpn passwd Gr33n!Tea42"],
    ["password_in_prose", "password -> Xq7Lm2Rk9!"],
    ["password_in_prose", "The admin password for the staging box is Qx7pLm2R9"],
    // After `is` or `was`, a chosen password of letters and digits, as right after the word.
    ["password_in_prose", "the password for jenkins is jenkins2022"],
    ["password_in_prose", "Set the password to Wint3r!Sky42 for now, I'll rotate it Monday."],
    ["password_in_prose", "the root password on db01 : Gr33n!Tea42"],
    ["address_user_password", "ID/PW : admin / Qx7pLm2R!"],
    ["address_user_password", "Credentials: admin/Wint3r!Sky42"],
    // A label that names the pair, with its sign: a chosen password of letters and digits counts.
    ["address_user_password", "id/pw : admin / admin1234"],
    ["address_user_password", "creds: ops:summer2023"],
    ["address_user_password", "creds - ops / Gr33n!Tea42"],
    ["address_user_password", "user/password: deploy:Xq7Lm2Rk9!"],
    ["authorization_header", "use Bearer 7f3a9c1e7b4d4e8f9a6b2c5d8e1f0a3b for the staging API"],
    // The scheme written as a label inside a string (`"Bearer: …"`).
    ["authorization_header", 'const bearer = "Bearer: 9kq2x7lmv4tz0pw8rj3nc6hb";'],
    // A login's label with its sign, then a user and a password split by a slash (or two) or a comma.
    ["address_user_password", "Login: deploy/Wint3r!Sky42"],
    ["address_user_password", "ftp(backup.user/Gr33n!Tea42)"],
    ["address_user_password", "ssh: ops, Xq7Lm2Rk9!"],
    ["address_user_password", "계정: deploy/Wint3r!Sky42"],
    ["address_user_password", "아이디=ops,Gr33n!Tea42"],
    // No sign, the slash spaced on both sides.
    ["address_user_password", "login admin / Wint3r!Sky42"],
    ["address_user_password", "ssh deploy // Gr33n!Tea42"],
    // An administrator's default pair.
    ["address_user_password", "the box still has root/Xq7Lm2Rk9! from the image"],
    ["address_user_password", "admin//Wint3r!Sky42"],
    ["address_user_password", "(sa/Gr33n!Tea42)"],
  ])("%s in %p", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });

  test("a vendor's token after Bearer keeps its own name", () => {
    expect(secretKinds("use Bearer ghp_Xq7Lm2Rk9XwTq8Lp3Nz5Vb2Hc6Pd4Yf1Mg7J")).toContain("github_token");
  });
});

describe("not found", () => {
  test.each([
    "password manager",
    "password reset link sent",
    "Set the password to something strong.",
    "the password for the admin account is stored in Vault",
    "The password policy requires 12 characters",
    "password SHA256",
    "reset your password at https://corp.example/reset",
    "the password for the wiki is in the vault",
    "the password for the router is printed on the back",
    "Check that the new password 'Tr0ub4dor&3' meets the policy before saving it.",
    "the password is changeme",
    "Password - <your password>",
    "Credentials: see the wiki page",
    "account: ops/billing",
    "credentials: service-account.json",
    "Bearer tokens are sent in the Authorization header",
    "Bearer <token>",
    "Bearer: <token>",
    "Bearer: see the vault",
    "Bearer ${API_TOKEN}",
    // A sign is required after a login's label; paths, routes and e-mail addresses are no pairs.
    "login page/v2Beta1",
    "login page / v2.3.1-beta",
    "login admin / password",
    "ssh keys / see the vault",
    "Login: jane.doe@corp.example",
    "ssh: deploy/changeme",
    "cd /root/Xq7Lm2Rk9!",
    "src/admin/Wint3r!Sky42",
    "open admin/Settings2 to change it",
    "cd root/Build64",
    "root/admin",
    // An account is as often a repository's owner; a placeholder or the user again is no password.
    "account: github/actions2",
    "id/pw : admin / changeme1",
    "creds: admin/admin",
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
