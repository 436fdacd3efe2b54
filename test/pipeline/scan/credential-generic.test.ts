/**
 * The generic credential (credential-generic.ts): a generated value after a credential's
 * word, in the languages of the supported locales and in the forms no named rule reads
 * (notes, table cells, XML elements, headers, chat). Values are drawn with a seed, so each
 * form is tried with several; placeholders and identifiers in the same places stay clean.
 */
import { describe, expect, test } from "bun:test";
import { random } from "../../../scanner/carriers.ts";
import { secretKinds } from "./fixture-scans.ts";

const next = random(11);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** A base62 token as a key generator writes it, with both cases and a digit. */
function token(n = 24): string {
  for (;;) {
    const t = Array.from({ length: n }, () => ALNUM[Math.floor(next() * ALNUM.length)]).join("");
    if (/[a-z]/.test(t) && /[A-Z]/.test(t) && /\d/.test(t)) return t;
  }
}
const hex = (n = 40) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join("");

/** Each form with `$` where the value goes. */
const FORMS: Record<string, string> = {
  "a note naming what the token is for": "API token for staging: $",
  "a table cell": "| billing | api key | $ |",
  "an XML element": "<token>$</token>",
  "an attribute after a key's name": `<add key="ApiToken" value="$"/>`,
  "a header": "X-Auth-Token: $",
  "an arrow in a note": "secret (prod) -> $",
  "a parenthesis before the sign": "token for the CI runner (rotated monthly): $",
  "a sentence around it": "Note: the deploy key is $, keep it safe",
  "nested JSON": `{"credentials": {"token": "$"}}`,
  "cred, short for a credential": 'const cred = "$"',
  "the next line, under a label": "API key:\n  $",
  German: "Der API-Schlüssel ist $",
  French: "la clé d'API est $",
  Spanish: "la clave de la API es $",
  Portuguese: "a chave da API é $",
  Italian: "il token di accesso è $",
  Dutch: "de sleutel voor de API: $",
  Polish: "klucz API: $",
  Turkish: "API anahtarı: $",
  Russian: "токен доступа: $",
  Korean: "API 토큰은 $ 입니다",
  Japanese: "アクセストークン: $",
  Chinese: "访问令牌是 $",
};

describe("a generated value after a credential's word is found", () => {
  for (const [name, form] of Object.entries(FORMS))
    test(name, () => {
      for (let i = 0; i < 5; i++) expect([form, secretKinds(form.replace("$", token(16 + i * 6))).length]).toEqual([form, 1]);
    });
  test("a hex key after secret", () => expect(secretKinds(`secret ${hex()}`)).toEqual(["generic_credential"]));
});

/** Chosen passwords after the word in the languages of the supported locales (unquoted: prose quotes examples). */
const PASSWORDS: Record<string, string> = {
  German: "mein Passwort lautet Xy7kLm2q9Rt",
  French: "mot de passe du serveur : Xy7kLm2q9RtZ",
  "French, abridged": "mdp wifi salle B -> Xy7kLm2q9RtZ",
  Spanish: "la contraseña del servidor es Xy7kLm2q9RtZ",
  Portuguese: "a senha do banco é Xy7kLm2q9RtZ",
  Dutch: "het wachtwoord is Xy7kLm2q9RtZ",
  Russian: "пароль от сервера Xy7kLm2q9RtZ",
  Chinese: "数据库密码 Xy7kLm2q9RtZ",
  "with symbols, after what it is for": "password for the wiki (ask ops) Xy7!kLm2#q9",
  "French, after an apostrophe": "le mdp c'est Xy7kLm2q9RtZ",
  "Turkish, inflected": "sunucu şifresi: Xy7kLm2q9RtZ",
  "Swedish, definite": "lösenordet är Xy7kLm2q9RtZ",
  "Spanish clave": "clave del wifi: Xy7kLm2q9RtZ",
  "a directive alone on its line (Gradle)": 'credentials {\n  username "deploy"\n  password "Xy7!kLm2#q9"\n}',
  "a directive alone on its line (Chef)": "  password 'Xy7!kLm2#q9'",
  "R's assignment": 'password <- "Xy7!kLm2#q9"',
};

describe("a chosen password after its word is found", () => {
  for (const [name, text] of Object.entries(PASSWORDS)) test(name, () => expect(secretKinds(text).length).toBe(1));
});

describe("the same places hold no credential", () => {
  const CLEAN: Record<string, string> = {
    "a placeholder": "API token for staging: <your-token-here>",
    "a variable": "API token for staging: ${STAGING_TOKEN}",
    "an environment lookup": "token: process.env.API_TOKEN",
    "a word value": "the secret is patience",
    "a product key under clave": "la clave del producto es ABCD-1234-EFGH",
    "a quoted example on its own line, a sentence after it": 'password "Tr0ub4dor&3" is weak',
    "a quoted example after an apostrophe's sentence": "l'exemple de mdp 'Soleil2024!' est refusé",
    "a key's name, not its value": "token_name: payments-reader",
    "a token's length": "token length 4096",
    "a word that opens with cred": "credit balance for order 8fAj3kLm9QzX2wVb7NcR",
    "cred before a word value": "cred: see the vault entry",
    "a name that is no credential's": "keyboard layout de-nodeadkeys-2024",
    "a password quoted as an example": "the password 'Tr0ub4dor&3' meets the policy",
    xxxx: "api key: xxxxxxxxxxxxxxxxxxxx",
    "a value two lines down is not read": "token\n\nThe quarterly report 8fAj3kLm9QzX2wVb7NcR is attached",
    "a sentence on the next line is not read": "API key:\nsee the vault entry payments/prod-reader-2024",
    "an e-mail address after password": "password: ask john.doe1984@corp.example.com",
  };
  for (const [name, text] of Object.entries(CLEAN)) test(name, () => expect(secretKinds(text)).toEqual([]));
});

test("a vendor's token keeps its own name, with no generic finding beside it", () => {
  expect(secretKinds(`token ghp_${token(36)}`)).toEqual(["github_token"]);
});
