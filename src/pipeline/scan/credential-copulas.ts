/**
 * A password told in a sentence of another supported language, as English's `my password is …` is
 * (credential-forms.ts): the password's word, the language's copula, the value (`das Passwort ist
 * sommer2023`, `le mot de passe est soleil2023`, `la contraseña es verano2023`, `la password è …`).
 * A sentence's words follow the copula far more often than a password does, so the value needs a
 * digit and a letter, and a hyphen-joined word (`2FA-geschützt`) is a sentence's.
 */
import { passwordValue } from "./credential-forms.ts";
import type { Detector } from "./detector.ts";

/**
 * The password's word in the locales' languages (Italian's is English's, after `è`); Polish as written without its
 * diacritic only, since the trigger walk opens a word at three Latin-1 characters and `hasło` has two.
 */
const WORDS = [
  "passwort",
  "kennwort",
  "mot de passe",
  "mdp",
  "contraseña",
  "contrasena",
  "senha",
  "wachtwoord",
  "haslo",
  "lösenordet",
  "lösenord",
  "passordet",
  "passord",
  "adgangskoden",
  "adgangskode",
  "salasana",
  "heslo",
];
/** Their copulas: German, French, Spanish, Portuguese, Dutch, Polish, Swedish, Norwegian and Danish, Finnish, Czech. */
const COPULAS = ["ist", "lautet", "war", "est", "était", "es", "era", "é", "is", "was", "jest", "to", "brzmi", "är", "var", "er", "on", "oli", "je"];
/** A value as a sentence writes it, quoted or up to a blank; unquoted, it holds a character no word of the sentence does. */
const VALUE = `(?:"[^"\\n]{3,128}"|'[^'\\n]{3,128}'|(?=[^\\s"'\`<>]{0,127}[0-9!#$%&*+=?@^_|~])[^\\s"'\`<>]{3,128})`;

/** The value after the copula, its quotes and the sentence's closing punctuation taken off, when a person chose it. */
function chosenInSentence(m: string): boolean {
  const raw = /(?:"[^"\n]*"|'[^'\n]*'|\S+)$/.exec(m)?.[0] ?? "";
  const quoted = /^["']/.test(raw);
  const value = raw.replace(/^["']|["']$/g, "").replace(/[.,;:!?]+$/, "");
  if (!/\d/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (/-[A-Za-z\u00C0-\u024F]{4,}/.test(value)) return false;
  return passwordValue(value, quoted, 6);
}

export const CREDENTIAL_COPULA_DETECTORS: Detector[] = [
  {
    kind: "password_in_prose",
    category: "secret",
    ignoreCase: true,
    // Opened with `\\b`, so that the engine tries it among the word rules, ahead of the generic one (credential-generic.ts).
    pattern: `\\b(?:(?:${WORDS.join("|")})[ \\t]{1,3}(?:${COPULAS.join("|")})|password[ \\t]{1,3}(?:è|era))[ \\t]{1,3}${VALUE}`,
    validate: chosenInSentence,
    start: { at: "word", literals: [...WORDS, "password"] },
  },
];
