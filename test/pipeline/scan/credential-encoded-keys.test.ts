/**
 * Private keys in other encodings (credential-encoded-keys.ts): a PEM file in base64 and a private JSON Web Key, with
 * bodies drawn from a seed; public keys, headers without a body and JWKs without a private member are none.
 */
import { describe, expect, test } from "bun:test";
import { random } from "../../../scanner/carriers.ts";
import { secretKinds } from "./fixture-scans.ts";

const next = random(89);
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const draw = (n: number, of: string) => Array.from({ length: n }, () => of[Math.floor(next() * of.length)]).join("");
/** A PEM of `label` with `lines` lines of a drawn body, as a file holds it. */
const pem = (label: string, lines: number) =>
  `-----BEGIN ${label}-----\n${Array.from({ length: lines }, () => draw(64, B64)).join("\n")}\n-----END ${label}-----\n`;

describe("found", () => {
  for (const label of ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY"])
    test(`a ${label} in base64`, () => {
      for (let i = 0; i < 3; i++) {
        const text = `  tls.key: ${btoa(pem(label, 4 + i * 5))}`;
        expect(secretKinds(text)).toContain("private_key");
      }
    });
  test("a private EC JWK", () => {
    for (let i = 0; i < 5; i++) {
      const text = JSON.stringify({ kty: "EC", crv: "P-256", x: draw(43, URL), y: draw(43, URL), d: draw(43, URL) });
      expect(secretKinds(text)).toEqual(["private_jwk"]);
    }
  });
  test("a private RSA JWK, pretty-printed, d before kty", () => {
    const text = JSON.stringify({ d: draw(342, URL), e: "AQAB", kty: "RSA", n: draw(342, URL) }, null, 2);
    expect(secretKinds(text)).toEqual(["private_jwk"]);
  });
  test("a symmetric JWK", () => expect(secretKinds(JSON.stringify({ kty: "oct", k: draw(43, URL) }))).toEqual(["private_jwk"]));
});

describe("not found", () => {
  test("a public key in base64", () => expect(secretKinds(btoa(pem("PUBLIC KEY", 6)))).toEqual([]));
  test("a certificate in base64", () => expect(secretKinds(`ca.crt: ${btoa(pem("CERTIFICATE", 6))}`)).toEqual([]));
  test("a private key's header without a body", () =>
    expect(secretKinds(btoa("-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n"))).toEqual([]));
  test("a public JWK", () =>
    expect(secretKinds(JSON.stringify({ kty: "EC", crv: "P-256", x: draw(43, URL), y: draw(43, URL), use: "sig", kid: "key-1" }))).toEqual(
      [],
    ));
  test("a JWKS of public keys", () =>
    expect(
      secretKinds(
        JSON.stringify({
          keys: [
            { kty: "RSA", e: "AQAB", n: draw(342, URL), kid: "a" },
            { kty: "RSA", e: "AQAB", n: draw(342, URL), kid: "b" },
          ],
        }),
      ),
    ).toEqual([]));
  test("a JWK's placeholder", () => expect(secretKinds('{"kty":"oct","k":"<your-key-here>"}')).toEqual([]));
});
