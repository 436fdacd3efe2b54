/**
 * A credential in a Markdown table (credential-tables.ts): a header names the column, a row's cell holds the value.
 * Values are drawn with a seed; placeholders, policies, counts, hashes and public keys in the same places stay clean.
 */
import { describe, expect, test } from "bun:test";
import { random } from "../../../scanner/carriers.ts";
import { secretKinds } from "./fixture-scans.ts";

const next = random(73);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const draw = (n: number) => Array.from({ length: n }, () => ALNUM[Math.floor(next() * ALNUM.length)]).join("");
/** A generated token with both cases and a digit. */
function token(): string {
  for (;;) {
    const t = draw(20 + Math.floor(next() * 20));
    if (/[a-z]/.test(t) && /[A-Z]/.test(t) && /\d/.test(t)) return t;
  }
}
/** A chosen password: letters of both cases and a digit, with a sign inside. */
function chosen(): string {
  let t = "";
  while (!/\d/.test(t) || !/[a-z]/.test(t) || !/[A-Z]/.test(t)) t = draw(10 + Math.floor(next() * 6));
  const at = 1 + Math.floor(next() * (t.length - 2));
  return `${t.slice(0, at)}${"!#%&*@^$"[Math.floor(next() * 8)]}${t.slice(at)}`;
}

const table = (header: string[], rows: string[][], separator = header.map(() => "---")) =>
  [header, separator, ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");

describe("a credential in a table's named column is found", () => {
  const CASES: [string, () => string][] = [
    ["a password column", () => table(["host", "user", "password"], [["db01", "admin", chosen()]])],
    [
      "a password column, the value in the third row",
      () =>
        table(
          ["host", "user", "password"],
          [
            ["db01", "admin", "(vault)"],
            ["db02", "ops", "n/a"],
            ["db03", "root", chosen()],
          ],
        ),
    ],
    ["an API token column, aligned", () => table(["service", "API token"], [["billing", `\`${token()}\``]], [":--", ":--:"])],
    ["a secret column", () => table(["app", "client id", "client secret"], [["portal", "portal-web", token()]])],
    ["German", () => table(["Server", "Benutzer", "Passwort"], [["db01", "admin", chosen()]])],
    ["Spanish", () => table(["servidor", "usuario", "contraseña"], [["db01", "admin", chosen()]])],
    ["French", () => table(["serveur", "utilisateur", "mot de passe"], [["db01", "admin", chosen()]])],
  ];
  for (const [name, make] of CASES)
    test(name, () => {
      for (let i = 0; i < 5; i++) {
        const text = make();
        expect([text, secretKinds(text)]).toEqual([text, ["credential_in_table"]]);
      }
    });
});

describe("tables that hold no credential stay clean", () => {
  const CLEAN: Record<string, string> = {
    placeholders: table(
      ["host", "password"],
      [
        ["db01", "<password>"],
        ["db02", "changeme"],
        ["db03", "${DB_PASS}"],
        ["db04", "********"],
      ],
    ),
    "a policy column": table(["setting", "password policy"], [["minimum", "Abc12345!"]]),
    "a column of booleans": table(["user", "password required"], [["admin", "true"]]),
    "token counts": table(["model", "max tokens", "token count"], [["m1", "4096", "1742"]]),
    "hashes named as such": table(["user", "password hash"], [["admin", "5f4dcc3b5aa765d61d8327deb882cf99"]]),
    "key ids": table(["service", "key id"], [["billing", "7a1c2b3d4e5f60718293a4b5c6d7e8f9"]]),
    "public keys": table(["host", "public key"], [["db01", "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"]]),
    "translation keys": table(["key", "English"], [["settings.password.reset", "Reset password"]]),
    "sentences under a password's name": table(["step", "password"], [["1", "ask the admin for one"]]),
  };
  for (const [name, text] of Object.entries(CLEAN)) test(name, () => expect(secretKinds(text)).toEqual([]));
});
