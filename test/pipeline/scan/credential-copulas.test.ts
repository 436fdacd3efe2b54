/**
 * A password told in a sentence of another supported language (credential-copulas.ts): the
 * password's word, the language's copula, a value of letters and digits. Written from the
 * languages' grammar, not from any fixture; sentences about passwords stay clean.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ["German", "mein Passwort ist sommer2023, bitte nicht weitergeben"],
    ["German, lautet", "das Kennwort lautet winter2024"],
    ["French", "le mot de passe est soleil2023"],
    ["French, abridged", "le mdp est wifi2023!"],
    ["Spanish", "la contraseña es verano2023"],
    ["Portuguese", "a senha é verao2023"],
    ["Italian", "la password è estate2023"],
    ["Dutch", "het wachtwoord is zomer2023"],
    ["Polish, without its diacritic", "haslo to lato2023x"],
    ["Swedish, definite", "lösenordet är sommar2023"],
    ["Norwegian", "passordet er sommer2023"],
    ["Finnish", "salasana on kesa2023x"],
    ["Czech", "heslo je leto2023x"],
    ["quoted", 'das Passwort ist "Sommer2023"'],
  ])("%s", (_, text) => {
    expect(secretKinds(text)).toEqual(["password_in_prose"]);
  });
});

describe("not found", () => {
  test.each([
    "Das Passwort ist abgelaufen",
    "Das Passwort ist 8 Zeichen lang",
    "Das Passwort ist 2FA-geschützt",
    "Le mot de passe est trop court",
    "la contraseña es incorrecta",
    "la password è sbagliata",
    "het wachtwoord is ${WACHTWOORD}",
    "das Passwort ist changeme1",
    "le mot de passe est 12345678",
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
