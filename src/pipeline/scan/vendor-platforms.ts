/**
 * Vendor credentials with a documented prefix that the other vendor files lack (a third
 * round, from each vendor's documentation of its token format): SaaS and developer
 * platforms (Notion, New Relic, Sentry's organization tokens, Netlify, SonarQube,
 * Buildkite, ClickUp, Typeform, HubSpot, Matrix/Synapse, LaunchDarkly, Mailgun, Asana,
 * Dropbox, Mapbox secret tokens, Telegram bots, X/Twitter app bearer tokens, Teams webhooks,
 * Logic Apps trigger URLs), AI platforms
 * (Together, Fireworks, RunPod, Hugging Face organizations), Supabase, Yandex Cloud, and payments (Flutterwave, Razorpay,
 * Mercado Pago, Plaid); Bitbucket Data Center tokens, Dropbox long-lived tokens by their shape, Atlassian's older API
 * tokens by name; AWS session tokens, New Relic insert keys, Grafana's older API keys, Discord user tokens, Zapier catch
 * hooks, Azure Functions' keys in trigger URLs and shared access signature tokens, and the developer and AI platforms listed below (Linear, Brevo, E2B,
 * Cerebras, Jina, Axiom, Honeycomb, Brave Search, Mem0, Browserbase, Anyscale, WooCommerce). Each body must look random,
 * so placeholders pass.
 */
import type { Detector, GatedSecretRule } from "./detector.ts";
import { percentDecoded, secretLike } from "./validators.ts";
import { prefixed } from "./vendor-prefixes.ts";

const UUID = "[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}";

export const VENDOR_PLATFORM_DETECTORS: Detector[] = [
  // Notion's internal integration tokens (`secret_` and 43 characters; `ntn_` is in vendor-tokens.ts).
  prefixed("notion_token", "secret_", "[A-Za-z0-9]{43}", 3.5, "A-Za-z0-9_-"),
  // New Relic user (`NRAK-`) and admin (`NRAA-`) API keys: 27 capitals and digits.
  ...["NRAK-", "NRAA-"].map((p) => prefixed("newrelic_api_key", p, "[A-Z0-9]{27}", 3.0)),
  // Sentry organization auth tokens: `sntrys_` and base64 of a signed JSON (`sntryu_` user tokens are in gitleaks' copy).
  prefixed("sentry_org_token", "sntrys_", "[A-Za-z0-9+/=_]{60,400}", 3.5, "A-Za-z0-9+/=_"),
  prefixed("netlify_token", "nfp_", "[A-Za-z0-9]{36,40}", 3.5),
  // SonarQube user, project and global analysis tokens.
  ...["squ_", "sqp_", "sqa_"].map((p) => prefixed("sonarqube_token", p, "[a-f0-9]{40}", 3.0)),
  prefixed("buildkite_token", "bkua_", "[a-f0-9]{40}", 3.0),
  // Supabase's secret API keys (`sb_secret_`; `sb_publishable_` keys are meant to be public), Hugging Face organization tokens.
  prefixed("supabase_secret_key", "sb_secret_", "[A-Za-z0-9_-]{24,64}", 3.5),
  prefixed("huggingface_org_token", "api_org_", "[A-Za-z0-9]{34}", 3.5),
  prefixed("together_api_key", "tgp_v1_", "[A-Za-z0-9_-]{40,64}", 3.5),
  prefixed("fireworks_api_key", "fw_", "[A-Za-z0-9]{24}", 3.5),
  prefixed("runpod_api_key", "rpa_", "[A-Z0-9]{40}", 3.0),
  // ClickUp personal tokens: `pk_`, the user id, `_`, 32 capitals and digits.
  prefixed("clickup_token", "pk_", "\\d{5,10}_[A-Z0-9]{32}", 3.0),
  prefixed("typeform_token", "tfp_", "[A-Za-z0-9_-]{40,64}", 3.5),
  // HubSpot private app tokens: `pat-`, the region, a UUID.
  ...["pat-na1-", "pat-na2-", "pat-eu1-", "pat-ap1-"].map((p) => prefixed("hubspot_token", p, UUID, 3.0)),
  // Matrix (Synapse) access tokens: `syt_`, the base64 user, 20 random characters, a 6-character checksum.
  prefixed("matrix_access_token", "syt_", "[A-Za-z0-9]{2,40}_[A-Za-z0-9]{20}_[A-Za-z0-9]{6}", 3.0),
  // LaunchDarkly API access tokens and server-side SDK keys: a UUID after `api-` or `sdk-`.
  ...["api-", "sdk-"].map((p) => prefixed("launchdarkly_key", p, UUID, 3.0)),
  // Mailgun's private API keys (the older form): `key-` and 32 hex.
  prefixed("mailgun_api_key", "key-", "[a-f0-9]{32}", 3.0),
  // Dropbox short-lived access tokens (`sl.` or `sl.u.`, then a long random body).
  prefixed("dropbox_access_token", "sl\\.", "(?:u\\.)?[A-Za-z0-9_-]{130,1400}", 4.0),
  // Mapbox secret tokens: `sk.` and base64 of `{"u":…` (public `pk.` tokens are meant to be shipped).
  prefixed("mapbox_secret_token", "sk\\.eyJ1Ijoi", "[A-Za-z0-9_-]{8,64}\\.[A-Za-z0-9_-]{20,64}", 3.0),
  // Yandex Cloud API keys (`AQVN`) and Yandex OAuth tokens (`y0_`).
  prefixed("yandex_api_key", "AQVN", "[A-Za-z0-9_-]{35,38}", 3.5),
  prefixed("yandex_oauth_token", "y0_", "[A-Za-z0-9_-]{55,58}", 3.5),
  // X (Twitter) app-only bearer tokens: 21 to 22 `A`s, then the URL-encoded key.
  {
    kind: "twitter_bearer_token",
    category: "secret",
    pattern: "\\bA{21,22}[A-Za-z0-9%]{60,120}(?![A-Za-z0-9%])",
    // The app's id follows the run, then a second run of `A`s (its zero bytes): both are the format, the key after them decides.
    validate: (m) => secretLike(m.replace(/^A+/, "").replace(/^([A-Za-z0-9]{1,12}?)A{5,}/, "$1"), 3.5),
    start: { at: "word", literals: ["AAAA"] },
  },
  // AWS STS session tokens (base64 of their binary header: `FwoGZXIvYXdz…`, and `IQoJb3JpZ2luX2Vj…`, "origin_ec"), long.
  ...["FwoGZXIvYXdz", "IQoJb3JpZ2luX2Vj"].map((p) =>
    prefixed("aws_session_token", p, "[A-Za-z0-9+/]{100,2000}={0,2}", 4.0, "A-Za-z0-9+/="),
  ),
  // New Relic Insights insert keys, Grafana's older API keys (base64 of `{"k":"…`), Discord user tokens with two-factor (`mfa.`).
  prefixed("newrelic_insert_key", "NRII-", "[A-Za-z0-9_-]{32}", 3.5),
  prefixed("grafana_api_key", "eyJrIjoi", "[A-Za-z0-9+/]{40,400}={0,2}", 3.5, "A-Za-z0-9+/="),
  prefixed("discord_user_token", "mfa\\.", "[A-Za-z0-9_-]{84}", 3.5),
  // Developer platforms and AI services: Linear OAuth tokens, Brevo SMTP keys, E2B, Cerebras, Jina, Axiom, Honeycomb
  // ingest keys, Brave Search, Mem0, Browserbase, Anyscale, WooCommerce REST keys.
  prefixed("linear_oauth_token", "lin_oauth_", "[a-f0-9]{64}", 3.0),
  prefixed("brevo_smtp_key", "xsmtpsib-", "[a-f0-9]{64}-[A-Za-z0-9]{16}", 3.0),
  prefixed("e2b_api_key", "e2b_", "[a-f0-9]{40}", 3.0),
  prefixed("cerebras_api_key", "csk-", "[a-z0-9]{48}", 3.5),
  prefixed("jina_api_key", "jina_", "[A-Za-z0-9_-]{50,80}", 3.5),
  ...["xaat-", "xapt-"].map((p) => prefixed("axiom_token", p, UUID, 3.0)),
  ...["hcaik_", "hcxik_"].map((p) => prefixed("honeycomb_ingest_key", p, "[a-z0-9]{58}", 3.5)),
  prefixed("brave_search_key", "BSA", "[A-Za-z0-9_-]{27,28}", 3.5),
  prefixed("mem0_api_key", "m0-", "[A-Za-z0-9]{40}", 3.5),
  prefixed("browserbase_key", "bb_live_", "[A-Za-z0-9_-]{27}", 3.5),
  prefixed("anyscale_key", "esecret_", "[a-z0-9]{26,40}", 3.5),
  ...["ck_", "cs_"].map((p) => prefixed("woocommerce_key", p, "[a-f0-9]{40}", 3.0)),

  // Azure Functions' keys in a trigger URL (`…azurewebsites.net/api/<fn>?code=…`): the key runs the function.
  {
    kind: "azure_function_key",
    category: "secret",
    pattern: "\\.azurewebsites\\.net/api/[^\\s?]{1,100}\\?(?:[^\\s&]{1,100}&){0,4}code=[A-Za-z0-9_=-]{40,100}",
    validate: (m) => secretLike(m.slice(m.lastIndexOf("code=") + 5), 3.5),
    start: { at: "literal", literals: [".azurewebsites.net/api/"] },
  },
  // Azure shared access signature tokens (IoT Hub, Service Bus, Event Hubs): `SharedAccessSignature sr=…&sig=…`.
  {
    kind: "azure_sas_token",
    category: "secret",
    pattern: "\\bSharedAccessSignature[ \\t]{1,3}(?:[a-z]{1,4}=[^\\s&\"']{1,300}&){1,4}?sig=[A-Za-z0-9%/+=]{20,120}",
    validate: (m) => secretLike(percentDecoded(m.slice(m.lastIndexOf("sig=") + 4).replace(/%(?![0-9A-Fa-f]{2})/g, "")), 3.5),
    start: { at: "word", literals: ["SharedAccessSignature"] },
  },
  // Zapier catch hooks: the account and the hook's key in the URL run the Zap.
  {
    kind: "zapier_webhook",
    category: "secret",
    pattern: "\\bhooks\\.zapier\\.com/hooks/catch/\\d{4,12}/[a-z0-9]{5,12}/?",
    validate: (m) => secretLike(m.replace(/\/$/, "").slice(m.replace(/\/$/, "").lastIndexOf("/") + 1), 2.0),
    start: { at: "word", literals: ["hooks.zapier.com/hooks/catch/"] },
  },
  // Payments: Flutterwave live secret keys, Razorpay key ids with their mode, Mercado Pago access tokens, Plaid access tokens.
  prefixed("flutterwave_secret_key", "FLWSECK-", "[a-f0-9]{32}-X", 3.0),
  ...["rzp_live_", "rzp_test_"].map((p) => prefixed("razorpay_key", p, "[A-Za-z0-9]{14}", 3.0)),
  prefixed("mercadopago_access_token", "APP_USR-", "\\d{16}-\\d{6}-[a-f0-9]{32}-\\d{6,10}", 3.0),
  ...["access-production-", "access-development-"].map((p) => prefixed("plaid_access_token", p, UUID, 3.0)),
  // Microsoft Teams incoming webhooks (`…webhook.office.com/webhookb2/<group>@<tenant>/IncomingWebhook/<id>/<owner>…`) and
  // Power Automate / Logic Apps trigger URLs, whose `sig=` lets anyone run the flow.
  {
    kind: "teams_webhook",
    category: "secret",
    pattern: `\\bwebhook\\.office\\.com/webhookb2/${UUID}@${UUID}/IncomingWebhook/[a-f0-9]{32}/${UUID}`,
    validate: (m) => secretLike(m.slice(m.indexOf("IncomingWebhook/") + 16, m.indexOf("IncomingWebhook/") + 48), 3.0),
    start: { at: "word", literals: ["webhook.office.com/webhookb2/"] },
  },
  {
    kind: "logic_app_trigger_url",
    category: "secret",
    pattern:
      "\\blogic\\.azure\\.com(?::443)?/workflows/[A-Za-z0-9]{8,64}/triggers/[^\\s?]{1,200}\\?[^\\s]{0,300}?[?&]sig=[A-Za-z0-9_%-]{40,64}",
    validate: (m) => secretLike(m.slice(m.lastIndexOf("sig=") + 4), 3.5),
    start: { at: "word", literals: ["logic.azure.com"] },
  },
  // Asana personal access tokens: `2/<user>/<app>:<32 hex>` (and the older `1/<user>:<32 hex>`).
  {
    kind: "asana_token",
    category: "secret",
    pattern: "\\b(?:2/\\d{10,16}/\\d{10,16}|1/\\d{10,16}):[a-f0-9]{32}(?![A-Za-z0-9])",
    validate: (m) => secretLike(m.slice(m.indexOf(":") + 1), 3.0),
    start: { at: "digit-word" },
  },
  // Bitbucket Data Center / Server HTTP access tokens: `BBDC-` and 44 base64 characters.
  prefixed("bitbucket_dc_token", "BBDC-", "[A-Za-z0-9+/_-]{44}", 3.5, "A-Za-z0-9+/=_-"),
  // Dropbox long-lived access tokens: 64 characters with a run of `A`s from the 12th on (gitleaks' rule reads 11, ten `A`s and
  // 43, issued tokens also show ten before nine), under any name (gitleaks' rule needs `dropbox` before it). Tried where a base64 run opens, as Discord's tokens are; a `_` or `-` in the first 24 characters ends that run early.
  {
    kind: "dropbox_access_token",
    category: "secret",
    pattern: "(?<![A-Za-z0-9_-])[A-Za-z0-9]{11}AAAAAAAAA[A-Za-z0-9_=-]{44}(?![A-Za-z0-9_=-])",
    validate: (m) => secretLike(m.slice(0, 11).replace(/A+$/, "") + m.slice(20).replace(/^A+/, ""), 3.5),
    start: { at: "base64-run" },
  },
  // Atlassian API tokens of the older form (24 letters and digits) under an Atlassian product's name (`ATLASSIAN_v3 = "…"`,
  // `jira.token: …`); gitleaks' rule asks for a hex tail, which these tokens do not keep.
  {
    kind: "atlassian_api_token",
    category: "secret",
    ignoreCase: true,
    pattern: "\\b(?:atlassian|jira|confluence)[\\w.-]{0,20}[\"']?[ \\t]{0,3}(?::=|=>|[:=])[ \\t]{0,3}[\"'`]?[A-Za-z0-9]{24}(?![A-Za-z0-9])",
    validate: (m) => {
      const token = m.slice(-24);
      return /[a-z]/.test(token) && /[A-Z]/.test(token) && /\d/.test(token) && secretLike(token, 3.5);
    },
    start: { at: "word", literals: ["atlassian", "jira", "confluence"] },
  },
  // Telegram bot tokens: the bot's id, `:AA`, 33 more characters.
  {
    kind: "telegram_bot_token",
    category: "secret",
    pattern: "\\b\\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])",
    validate: (m) => secretLike(m.slice(m.indexOf(":") + 3), 3.5),
    start: { at: "digit-word" },
  },
];

/**
 * Mailchimp API keys: 32 hex and the data centre (`…-us21`). Gated by the `-us` the key ends with: a start at every hex
 * word would cost ordinary text dearly.
 */
export const MAILCHIMP_KEY_RULE: GatedSecretRule = {
  kind: "mailchimp_api_key",
  regex: /\b[a-f0-9]{32}-us\d{1,2}\b/g,
  keywords: ["-us"],
  validate: (m) => secretLike(m.slice(0, 32), 3.0),
};
