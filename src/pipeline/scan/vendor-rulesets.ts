/**
 * Vendor credentials with a fixed prefix taken from maintained rule sets, for formats the other vendor files and
 * gitleaks' copy lack: eth0izzle/shhgit's signatures (MIT, `config.yaml` @ 07d9aa9c: Facebook's user access tokens,
 * Amazon MWS auth tokens, Office 365 connector webhooks on outlook.office.com) and mazen160/secrets-patterns-db
 * (CC BY 4.0, `db/rules-stable.yml` @ 061313d5: AWS AppSync API keys, Apify API tokens). Each body must look random,
 * so documentation placeholders pass.
 */
import type { Detector } from "./detector.ts";
import { randomAfter } from "./validators.ts";
import { prefixed } from "./vendor-prefixes.ts";

const UUID = "[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}";

export const VENDOR_RULESET_DETECTORS: Detector[] = [
  // shhgit: "Facebook access token", a Graph API explorer user token.
  prefixed("facebook_access_token", "EAACEdEose0cBA", "[0-9A-Za-z]{20,512}", 3.5, "0-9A-Za-z"),
  // shhgit and secrets-patterns-db: "Amazon MWS Auth Token", `amzn.mws.` and a UUID.
  prefixed("amazon_mws_token", "amzn\\.mws\\.", UUID, 3.0, "a-f0-9-"),
  // shhgit: "Outlook team", an Office 365 connector's incoming webhook on the older domain (webhook.office.com's is in gitleaks' copy).
  {
    kind: "office365_webhook",
    category: "secret",
    pattern: `\\boutlook\\.office(?:365)?\\.com/webhook/${UUID}@${UUID}/IncomingWebhook/[a-f0-9]{32}/${UUID}`,
    validate: randomAfter(/^[^@]+@[^/]+\/IncomingWebhook\//, 3.0),
    start: { at: "word", literals: ["outlook.office"] },
  },
  // secrets-patterns-db: "AWS AppSync GraphQL Key", `da2-` and 26 lower-case letters and digits.
  prefixed("aws_appsync_key", "da2-", "[a-z0-9]{26}", 3.5, "A-Za-z0-9"),
  // secrets-patterns-db: "Apify", `apify_api_` and 36 characters.
  prefixed("apify_token", "apify_api_", "[A-Za-z0-9]{36}", 3.5, "A-Za-z0-9"),
];
