/**
 * The built-in vendor detectors of secret-detectors.ts in their newer shapes: GitHub
 * installation tokens written `ghs_<date>_<signed JSON>`, Slack's rotating tokens
 * (`xoxp-1-…`, `xoxe-1-…`); their documentation placeholders are not credentials.
 */
import { expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** A deterministic body: no real token, no chance. */
const body = (n: number, seed: number) => Array.from({ length: n }, (_, i) => B64URL[(seed * 31 + i * i * 7 + i * 13) % 64]).join("");

test.each([
  ["github_token", `GITHUB_TOKEN=ghs_20260523_eyJ${body(60, 1)}.${body(40, 2)}`],
  ["github_token", `token: ghs_${body(36, 3).replace(/[-_]/g, "x")}`],
  ["slack_token", `SLACK_USER_TOKEN=xoxp-1-${body(120, 4).replace(/_/g, "x")}`],
  ["slack_token", `xoxb-391809548274-4236212766789-${body(24, 5).replace(/[-_]/g, "q")}`],
  // A gitleaks literal that opens with a digit: started by the digit-word start (a word literal there is never met).
  ["clickhouse_cloud_api_secret_key", `key 4b1d${body(38, 6).replace(/[-_]/g, "z")}`],
  // gitleaks' Sonar rule names its second group the secret (its first is `login` or `token`).
  ["sonar_api_token", "sonar.login=3c7e9a1f5b2d8c4e6a0f9b3d7c1e5a8f2b6d0c4e"],
  // A test key holds `test` once, in its prefix: still a key.
  ["stripe_access_token", `STRIPE_KEY=sk_test_${body(24, 8).replace(/[-_]/g, "r")}`],
  // GitHub's `https://<token>:x-oauth-basic@github.com`: the token is the user, the password a fixed word.
  ["url_credentials", `git clone https://${body(40, 7).replace(/[-_]/g, "k")}:x-oauth-basic@github.com/acme/repo`],
])("%s in %p", (kind, text) => {
  expect(secretKinds(text)).toContain(kind);
});

test.each([
  "ghs_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "SLACK_TOKEN=xoxp-1-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "xoxb-your-token-here",
  // gitleaks' Terraform password rule takes the quotes into its group: the word between them is a template's.
  'mysql --host=localhost --user=root --password="password"',
  'administrator_login_password = "password"',
  "https://ghp_1234567890abcdefghijklmnopqrstuvwxyzAB:x-oauth-basic@github.com/acme/repo",
  // A token's format spelled with `Test` twice: a fixture's value, written by hand.
  "//registry.npmjs.org/:_authToken=npm_a1Test2b3TestDrive4c5d6e7f8g9h0iJkLm",
  // The storage emulator's key, which Microsoft publishes: it opens only the emulator on the developer's machine.
  'const connStr = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";',
  // A JWT's shape with words for its payload and signature: a template, under a token's name or not.
  "<adminToken>eyJ2ZXIiOiIyIiwidHlwIjoiSldUIiwiYWxnIjoiUlMyNTYiLCJraWQiOiJ8iS8bCyxBfQS05cyWCRp9ocHCEEdxVmv.body.signature</adminToken>",
])("%p is a placeholder", (text) => {
  expect(secretKinds(text)).toEqual([]);
});
