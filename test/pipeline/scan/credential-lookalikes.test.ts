/**
 * Values that look random but grant nothing, near the words credentials stand after: digests,
 * ids, images, minified code, lock files, resource names, public ids. None may draw a secret
 * finding (credential-generic.ts, and the generic assignment that shares its character model).
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

const CLEAN: Record<string, string> = {
  "a lock file's integrity hash": `"integrity": "sha512-Z3Jp8wXh1K6tPqL0bNvR5yTcM2aF9eD4sG7hJ1kL3mN5pQ8rS0tU2vW4xY6zA8bC0dE2fG4hI6jK8lM0nO2pQ4==",`,
  "yarn's integrity line": "  integrity sha1-8fAj3kLm9QzX2wVb7NcR8fAj3kI=",
  "a commit named as one": "the key commit was 9fceb02d0ae598e95dc970b74767f19372d61af8",
  "a checksum named as one": "release key checksum: 5f4dcc3b5aa765d61d8327deb882cf99e3b0c44298fc1c149afbf4c8996fb924",
  "a key's id, a UUID": "api key id: 550e8400-e29b-41d4-a716-446655440000",
  "a UUID alone after token": "token 550e8400-e29b-41d4-a716-446655440000",
  "an image in a data URL": `logo for the token page: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==`,
  "an image in base64 after key":
    "key image: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "minified code": `!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};return e[r].call(o.exports,o,o.exports,n),o.l=!0,o.exports}n.key="a",n.token=function(e){return e.split(/\\s+/)}}`,
  "a Kubernetes secret's name": "secretName: payments-api-tls-7d9f8b6c5-x2k4p",
  "a pod's name under token": "token: payments-api-5d8f7c9b4-qw2er",
  "a service account's token file":
    "kubectl logs payments-api-5d8f7c9b4-qw2er --token-file /var/run/secrets/kubernetes.io/serviceaccount/token",
  "an ARN naming a secret": "secret ARN: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db/password-AbCdEf",
  "an account id": "AWS account key contact: 123456789012",
  "an OAuth client id": "client id for the key: 1234567890-abc123def456.apps.googleusercontent.com",
  "a video id in a URL": "The key scene is at https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  "a publishable key": "publishable key: pk_live_51HxYzAbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  "an image digest": "image key: nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
  "a version": "token version 2.14.0-rc.1+build.5",
  "a key file's path": "key file: /etc/ssl/private/server-2024.key",
  "a policy's name": "The password policy requires RequireUppercaseLetters",
  "a tracking number": "the key tracking number is 1ZTNO08LH27PAZ1NBN",
  "a bundle's file name": "key: main.3f9a2b1c.chunk.js",
  "an unsigned JWT": "token: eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0In0.",
  "a key's fingerprint": "GPG key fingerprint: 3AA5C34371567BD2",
  "a primary key": "Primary key: 8f14e45fceea167a5a36dedd4bea2543",
  "a public key": "wallet public key 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
  "an SSH public key": "deploy key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ops@ci",
  "a translation key": `"key": "settings.account.password.reset_button"`,
  "token counts": "Token usage: prompt_tokens=1532, completion_tokens=210, total=1742",
  "a sentence about a secret": "The secret to good bread is time: 18 hours of cold fermentation",
  "a reference after password": "Password reset link expires in 24 hours (ref ABX-2024-118842)",
  "an error code in French": "jeton de session expiré, code d'erreur E4021-FR",
  "a case number in German": "Passwort vergessen? Vorgang 2024-11-27-00042",
  "a user id after key": `key: value pairs like {"userId": "a81bc81b-dead-4e5d-abde-8a4b4a6b0bd1"}`,
  "a cache key": "the cache key is user:42:profile:v3",
  "a cookie's attributes": "sessionToken cookie set for path=/app; SameSite=Lax; Secure",
  "a document's path": "Authorization: see docs/auth/OAuth2ClientCredentialsFlow.md",
  "a Secret's type": "auth: kubernetes.io/service-account-token",
  "a hash under its name": "key_hash: 5f4dcc3b5aa765d61d8327deb882cf99",
  "a CSRF token in a form": `<input type="hidden" name="csrf_token" value="Qm9vYjN4ZmJhcjEyMzQ1Njc4OTAx">`,
  "a page cursor": `{"next_page_token": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA0ZmN0aRIJEgdGQA"}`,
  "a quoted example password in prose": "the password 'Tr0ub4dor&3' would meet the policy",
  "an e-mail address after token": "send the token request to j.doe1984.ops@example.org",
  "a resource with a hash suffix in Russian": "ключ кэша: checkout-service-6f7d8c9b5-zx9qw",
  "a Japanese sentence about a token's size": "トークンの上限は 4096 です",
  "a password policy's example": "Your password must be 8-64 characters, e.g. Summer2024!",
  "a password hint": "password hint: MyDog1998",
  "a reset link": "reset password link: https://example.com/reset?t=abc123XYZ789qwe",
  "an alphabet run as a password": `"password": "abcdefg"`,
  "a template's reference to a stored token": "AuthToken: '{{resolve:secretsmanager:/cache/prod/authtoken:SecretString:password}}'",
  "a token endpoint": "token endpoint https://login.microsoftonline.com/common/oauth2/v2.0/token",
};

describe("look-alikes stay clean", () => {
  for (const [name, text] of Object.entries(CLEAN)) test(name, () => expect(secretKinds(text)).toEqual([]));
});
