/**
 * Vendor formats taken from maintained rule sets (vendor-rulesets.ts: shhgit, secrets-patterns-db): values drawn with
 * a seed from each rule's pattern are found under their own kind; the same prefixes with a placeholder body are not.
 */
import { describe, expect, test } from "bun:test";
import { random } from "../../../scanner/carriers.ts";
import { secretKinds } from "./fixture-scans.ts";

const next = random(47);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const draw = (n: number, of: string) => Array.from({ length: n }, () => of[Math.floor(next() * of.length)]).join("");
const uuid = () => `${draw(8, HEX)}-${draw(4, HEX)}-${draw(4, HEX)}-${draw(4, HEX)}-${draw(12, HEX)}`;

/** Each kind, a text around a value drawn from its pattern, and the same text with a placeholder. */
const RULES: [kind: string, value: () => string, placeholder: string][] = [
  [
    "facebook_access_token",
    () => `graph token: EAACEdEose0cBA${draw(20 + Math.floor(next() * 160), ALNUM)}`,
    "graph token: EAACEdEose0cBAxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  ],
  ["amazon_mws_token", () => `MWS_AUTH_TOKEN=amzn.mws.${uuid()}`, "MWS_AUTH_TOKEN=amzn.mws.00000000-0000-0000-0000-000000000000"],
  [
    "office365_webhook",
    () => `curl -X POST https://outlook.office.com/webhook/${uuid()}@${uuid()}/IncomingWebhook/${draw(32, HEX)}/${uuid()}`,
    "curl -X POST https://outlook.office.com/webhook/00000000-0000-0000-0000-000000000000@00000000-0000-0000-0000-000000000000/IncomingWebhook/00000000000000000000000000000000/00000000-0000-0000-0000-000000000000",
  ],
  ["aws_appsync_key", () => `x-api-key: da2-${draw(26, LOWER)}`, "x-api-key: da2-xxxxxxxxxxxxxxxxxxxxxxxxxx"],
  ["apify_token", () => `APIFY_TOKEN=apify_api_${draw(36, ALNUM)}`, "APIFY_TOKEN=apify_api_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"],
];

describe("vendor formats from maintained rule sets", () => {
  for (const [kind, value, placeholder] of RULES) {
    test(`${kind}: seeded values are found`, () => {
      for (let i = 0; i < 8; i++) {
        const text = value();
        // A long Facebook token is gitleaks' page token too (`EAA` and 100 or more): either name blocks it.
        const kinds = secretKinds(text);
        expect([text, kinds.length === 1 && (kinds[0] === kind || kinds[0] === "facebook_page_access_token")]).toEqual([text, true]);
      }
    });
    test(`${kind}: a placeholder is not`, () => expect(secretKinds(placeholder)).toEqual([]));
  }
});
