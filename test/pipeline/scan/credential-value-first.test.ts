/**
 * The generic credential read back from its value (credential-value-first.ts): a generated value whose name holds a
 * credential's word inside it (`dbpassword`, `DBPASS`, `mysqlPwd`, `redisAuth`), in the positions no sign marks (an
 * arrow, a blank, backticks, a table cell, an XML element, a flag, a note). Names, forms and values are crossed, the
 * values drawn with a seed; the same forms with names of what is no credential, and the same values, stay clean.
 */
import { describe, expect, test } from "bun:test";
import { random } from "../../../scanner/carriers.ts";
import { secretKinds } from "./fixture-scans.ts";

const next = random(61);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** A base62 token of 24 to 47 characters, with both cases and a digit, as a key generator writes it. */
function token(): string {
  const n = 24 + Math.floor(next() * 24);
  for (;;) {
    const t = Array.from({ length: n }, () => ALNUM[Math.floor(next() * ALNUM.length)]).join("");
    if (/[a-z]/.test(t) && /[A-Z]/.test(t) && /\d/.test(t)) return t;
  }
}

/** Compound names in the case styles of configs and code. */
const NAMES = [
  "dbpassword",
  "DBPASS",
  "mysqlPwd",
  "admin_pw",
  "rootpw",
  "smtpPassword",
  "api-secret",
  "authkey",
  "redisAuth",
  "clientsecret",
  "encryption_key",
  "privatekey",
  "botToken",
  "SESSION_SECRET",
  "Datenbankpasswort",
];
/** Positions with no sign between name and value, each with `N` for the name and `V` for the value. */
const FORMS: Record<string, string> = {
  "an arrow": "N -> V",
  "R's assignment": "N <- V",
  "a blank": "N V",
  backticks: "N = `V`",
  "a Markdown table": "| staging | N | V |",
  "an XML element": "<N>V</N>",
  "a flag": "./deploy --N V --region eu-west-1",
  "a Dockerfile's ENV": "ENV N V",
  "a note": "the N for the server is V",
  "a label above": "N:\n    V",
};

/** A form with its name and value put in; a flag's name is written as flags are (lower case, dashes). */
const filled = (form: string, shape: string, name: string, value: string) =>
  shape.replace(/\bN\b/g, form === "a flag" ? name.toLowerCase().replace(/_/g, "-") : name).replace(/\bV\b/, value);

describe("a generated value under a name that holds a credential's word is found", () => {
  for (const [form, shape] of Object.entries(FORMS))
    test(form, () => {
      for (const name of NAMES) {
        const text = filled(form, shape, name, token());
        expect([text, secretKinds(text).length]).toEqual([text, 1]);
      }
    });
});

/** A chosen password (a sign between letters or digits) under such a name, in the same positions. */
function chosen(): string {
  const t = token().slice(0, 9 + Math.floor(next() * 8));
  const at = 1 + Math.floor(next() * (t.length - 2));
  return `${t.slice(0, at)}${"!#$%&*@^"[Math.floor(next() * 8)]}${t.slice(at)}`;
}
const PASSWORD_NAMES = [
  "dbpassword",
  "DBPASS",
  "mysqlPwd",
  "admin_pw",
  "rootpw",
  "smtpPassword",
  "mailpass",
  "storagePassword",
  "Datenbankpasswort",
];

describe("a chosen password under a name that holds a password's word is found", () => {
  for (const [form, shape] of Object.entries(FORMS).filter(([form]) => form !== "a label above"))
    test(form, () => {
      for (const name of PASSWORD_NAMES) {
        const value = chosen();
        // The value needs a digit and a letter besides its sign (credential-notes.ts mixedValue).
        if (!/\d/.test(value) || !/[A-Za-z]/.test(value)) continue;
        const text = filled(form, shape, name, value);
        expect([text, secretKinds(text).length]).toEqual([text, 1]);
      }
    });
  test("a directive given in a sentence", () =>
    expect(secretKinds("set requirepass Zq7xN3pLw9!b in the config file")).toEqual(["generic_credential"]));
});

/** Names of what is no credential, though a credential's word stands inside them. */
const NOT_CREDENTIALS = [
  "publicKey",
  "cacheKey",
  "localStorageKey",
  "passwordField",
  "sort_key",
  "idempotencyKey",
  "monkey",
  "turkey",
  "keyboard",
  "tokenId",
  "api_key_id",
  "secretName",
  "passwordHash",
  "passwordDigest",
  "token_sha256",
  "passwordless",
  "password_policy",
  "secret_santa_group",
  "compass",
  "bypass",
  "nextPageToken",
  "csrfToken",
  "tokenizer",
  "author",
];

describe("the same forms and values under other names stay clean", () => {
  // A Dockerfile's ENV line is the ENV rule's, which reads any name with a credential's word (credential-files.test.ts).
  for (const [form, shape] of Object.entries(FORMS).filter(([form]) => form !== "a Dockerfile's ENV"))
    test(form, () => {
      for (const name of NOT_CREDENTIALS) {
        const text = shape.replace(/\bN\b/g, name).replace(/\bV\b/, token());
        expect([text, secretKinds(text)]).toEqual([text, []]);
      }
    });
  test("a PEM block's body is the key rule's finding alone", () => {
    const body = Array.from({ length: 3 }, token).join("");
    expect(secretKinds(`-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`)).not.toContain("generic_credential");
  });
  test("a value too far from the name is not its value", () =>
    expect(secretKinds(`dbpassword is set in the vault, and the build id of the release we shipped is ${token()}`)).toEqual([]));
});
