/**
 * Private keys written in other encodings than PEM's armour: a PEM file in base64 (`LS0tLS1CRUdJTi…`, a Kubernetes
 * Secret's `tls.key`, a CI variable) and a private JSON Web Key (RFC 7517: an object with `"kty"` and its private
 * member `"d"`, or a symmetric key's `"k"`). A public key, a header alone or a placeholder body is none.
 */
import type { Detector } from "./detector.ts";
import { secretLike } from "./validators.ts";

/** What a base64 PEM says, if it decodes to a private key's armour and a body of some length. */
function base64PrivateKey(m: string): boolean {
  const run = m.replace(/=+$/, "");
  let text: string;
  try {
    text = atob(run.slice(0, run.length - (run.length % 4)));
  } catch {
    return false;
  }
  const header = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----\s*/.exec(text);
  if (!header) return false;
  const body = text.slice(header.index + header[0].length).replace(/\s+/g, "");
  return body.length >= 64 && secretLike(body.slice(0, 256), 4.0);
}

/** How far from its `"kty"` a JWK's braces may stand. */
const JWK_BEFORE = 4096;
const JWK_AFTER = 8192;

/** The private member of the JSON object around `index` (a JWK is flat), if it holds a random value. */
function privateJwk(text: string, index: number): boolean {
  // Searched within the reach only: a search of the whole text at every `"kty"` made a text of many quadratic.
  const from = Math.max(0, index - JWK_BEFORE);
  const before = text.slice(from, index + 1).lastIndexOf("{");
  const after = text.slice(index, index + JWK_AFTER + 1).indexOf("}");
  if (before < 0 || after < 0) return false;
  const member = /"(?:d|k)"[ \t]*:[ \t]*"([A-Za-z0-9_-]{16,})"/.exec(text.slice(from + before, index + after));
  return member !== null && secretLike(member[1] as string, 3.5);
}

export const CREDENTIAL_ENCODED_KEY_DETECTORS: Detector[] = [
  {
    kind: "private_key",
    category: "secret",
    // `-----BEGIN` in base64, then the rest of the run (a Secret's value is one line; a wrapped one, its first line).
    pattern: "\\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{40,8000}={0,2}",
    validate: base64PrivateKey,
    start: { at: "word", literals: ["LS0tLS1CRUdJTi"] },
  },
  {
    kind: "private_jwk",
    category: "secret",
    pattern: `"kty"[ \\t]{0,3}:[ \\t]{0,3}"(?:RSA|EC|OKP|oct)"`,
    validate: (_m, text, index) => privateJwk(text, index),
    start: { at: "literal", literals: ['"kty"'] },
  },
];
