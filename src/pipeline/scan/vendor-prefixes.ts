/**
 * More vendor credentials with a documented prefix that gitleaks' copy (scanner/gitleaks/)
 * and vendor-tokens.ts lack: Google's OAuth tokens and client secrets, Stripe webhook
 * secrets, Square OAuth secrets, Firebase server keys, Azure SAS signatures, Discord
 * webhooks, AI and developer platforms (NVIDIA, Tavily, Firecrawl, ElevenLabs, Pinecone,
 * Neon, Render, PostHog, Resend, Tailscale, Cast AI, Chief Tools), Adyen and Braintree,
 * Azure Data Factory runtime keys, Django's generated keys, Tencent SecretIds, Salesforce
 * sessions, NuGet keys, Slack's browser tokens, and Claude Code session links. Some follow
 * gitleaks' newer rules (gitleaks/gitleaks, MIT; cmd/generate/config/rules), the others
 * the vendor's documentation. Each body must look
 * random, so documentation placeholders (`whsec_xxxx`, `tvly-YOUR_API_KEY`) pass.
 */
import type { Detector } from "./detector.ts";
import { percentDecoded, randomAfter, secretLike } from "./validators.ts";

/** A token of `prefix` and a body of `body` (a character class with its count), ending where the class ends. */
export function prefixed(kind: string, prefix: string, body: string, min = 3.0, end = "A-Za-z0-9_-"): Detector {
  const literal = prefix.replace(/\\/g, "");
  return {
    kind,
    category: "secret",
    pattern: `\\b${prefix}${body}(?![${end}])`,
    validate: randomAfter(new RegExp(`^${prefix}`), min),
    start: { at: "word", literals: [literal] },
  };
}

export const VENDOR_PREFIX_DETECTORS: Detector[] = [
  // Google: OAuth access tokens (`ya29.`), OAuth client secrets (`GOCSPX-`), refresh tokens (`1//0`).
  prefixed("google_oauth_token", "ya29\\.", "[A-Za-z0-9_-]{30,2048}", 3.5),
  prefixed("google_oauth_client_secret", "GOCSPX-", "[A-Za-z0-9_-]{28}", 3.5),
  {
    kind: "google_oauth_token",
    category: "secret",
    // Tried at the `//0` (a start opens with punctuation), the `1` read behind.
    pattern: "(?<=(?<![A-Za-z0-9/])1)//0[A-Za-z0-9_-]{40,512}(?![A-Za-z0-9_-])",
    validate: randomAfter(/^\/\/0/, 3.5),
    start: { at: "literal", literals: ["//0"] },
  },
  // Stripe webhook signing secrets, Square OAuth application secrets.
  prefixed("stripe_webhook_secret", "whsec_", "[A-Za-z0-9+/]{32,88}={0,2}", 3.5, "A-Za-z0-9+/="),
  prefixed("square_oauth_secret", "sq0csp-", "[A-Za-z0-9_-]{43}", 3.5),
  // Firebase Cloud Messaging legacy server keys: `AAAA`, 7 characters, `:`, 140 more.
  {
    kind: "firebase_server_key",
    category: "secret",
    pattern: "\\bAAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{140}(?![A-Za-z0-9_-])",
    validate: (m) => secretLike(m.slice(12), 4.0),
    start: { at: "word", literals: ["AAAA"] },
  },
  // Azure shared access signatures: the `sig=` of a URL or connection string that also carries the service version (`sv=`).
  {
    kind: "azure_sas_token",
    category: "secret",
    pattern: "[?&;]sig=[A-Za-z0-9%+/]{40,128}(?:%3D|=){0,2}",
    validate: (m, text, index) =>
      /[?&;]sv=\d{4}-\d{2}-\d{2}/.test(text.slice(Math.max(0, index - 400), index + 400)) && secretLike(percentDecoded(m.slice(5)), 4.0),
    start: { at: "literal", literals: ["?sig=", "&sig=", ";sig="] },
  },
  // Discord webhooks: the id and the token in the URL let anyone post.
  {
    kind: "discord_webhook",
    category: "secret",
    pattern: "\\bdiscord(?:app)?\\.com/api/webhooks/\\d{17,20}/[A-Za-z0-9_-]{60,68}(?![A-Za-z0-9_-])",
    validate: (m) => secretLike(m.slice(m.lastIndexOf("/") + 1), 4.0),
    start: { at: "word", literals: ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"] },
  },
  // AI and developer platforms.
  prefixed("nvidia_api_key", "nvapi-", "[A-Za-z0-9_-]{64}", 3.5),
  prefixed("tavily_api_key", "tvly-", "(?:dev-|prod-)?[A-Za-z0-9]{24,48}", 3.5),
  prefixed("firecrawl_api_key", "fc-", "[a-f0-9]{32}", 3.0),
  prefixed("elevenlabs_api_key", "sk_", "[a-f0-9]{48}", 3.0),
  prefixed("pinecone_api_key", "pcsk_", "[A-Za-z0-9_]{40,100}", 3.5),
  prefixed("neon_api_key", "napi_", "[a-z0-9]{64}", 3.5),
  prefixed("render_api_key", "rnd_", "[A-Za-z0-9]{32}", 3.5),
  prefixed("posthog_personal_api_key", "phx_", "[A-Za-z0-9]{40,50}", 3.5),
  prefixed("resend_api_key", "re_", "[A-Za-z0-9]{6,12}_[A-Za-z0-9]{20,40}", 3.5),
  prefixed("tailscale_key", "tskey-", "(?:auth|api|client|webhook|scim)-[A-Za-z0-9]{6,24}-[A-Za-z0-9]{16,64}", 3.5),
  prefixed("castai_api_key", "castai_v1_", "[A-Za-z0-9]{64}_[A-Za-z0-9]{8}", 3.0),
  {
    kind: "chieftools_token",
    category: "secret",
    pattern: "\\bct[opr]_[A-Za-z0-9]{30,248}(?![A-Za-z0-9])",
    validate: randomAfter(/^ct[opr]_/, 3.5),
    start: { at: "word", literals: ["ctp_", "cto_", "ctr_"] },
  },
  // Payments: Adyen API keys (`AQE…` and a base64url body), Braintree access and tokenization keys.
  {
    kind: "adyen_api_key",
    category: "secret",
    pattern: "\\bAQE[a-z0-9]{5,64}\\.[A-Za-z0-9_=-]{50,80}(?![A-Za-z0-9_=-])",
    validate: (m) => secretLike(m.slice(m.indexOf(".") + 1), 3.5),
    start: { at: "word", literals: ["AQE"] },
  },
  {
    kind: "braintree_access_token",
    category: "secret",
    pattern:
      "\\b(?:access_token\\$(?:production|sandbox)\\$[a-z0-9]{16}\\$[a-f0-9]{32}|(?:production|sandbox)_[a-z0-9]{8}_[a-z0-9]{16}(?![a-z0-9]))",
    validate: (m) =>
      secretLike(m.replace(/^access_token\$\w+\$|^(?:production|sandbox)_/, ""), 3.0) && /\d/.test(m) && /[a-z]\d|\d[a-z]/.test(m),
    start: { at: "word", literals: ["access_token$", "production_", "sandbox_"] },
  },
  // Azure Data Factory self-hosted integration runtime keys: `IR@<guid>@<factory>@<region>@<base64 key>`.
  {
    kind: "datafactory_runtime_key",
    category: "secret",
    pattern: "\\bIR@[0-9a-zA-Z-]{36}@[^@\\s]{1,90}@[0-9a-zA-Z=-]{0,40}@[A-Za-z0-9+/=]{44}",
    validate: (m) => secretLike(m.slice(-44), 3.5),
    start: { at: "word", literals: ["IR@"] },
  },
  // Django's generated SECRET_KEY (`django-insecure-…`): insecure by name, still the key that signs sessions.
  {
    kind: "django_secret_key",
    category: "secret",
    pattern: "\\bdjango-insecure-[^\"'\\s]{20,250}",
    validate: randomAfter(/^django-insecure-/, 3.5),
    start: { at: "word", literals: ["django-insecure-"] },
  },
  // Tencent Cloud SecretIds (`AKID` and 32 characters; like AWS's AKIA ids, half of a key pair and named a secret by Tencent).
  {
    kind: "tencent_secret_id",
    category: "secret",
    pattern: "\\bAKID[A-Za-z0-9]{32}(?![A-Za-z0-9])",
    validate: (m) => !/EXAMPLE/i.test(m) && /\d/.test(m) && randomAfter(/^AKID/, 3.5)(m),
  },
  // Salesforce session and OAuth access tokens: the org id (`00D` and 12 or 15 characters), `!`, the session.
  {
    kind: "salesforce_access_token",
    category: "secret",
    pattern: "\\b00D[A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?![A-Za-z0-9._]{80,200}",
    validate: (m) => secretLike(m.slice(m.indexOf("!") + 1), 4.0),
    start: { at: "digit-word" },
  },
  // NuGet API keys: `oy2` and 43 lower-case characters.
  prefixed("nuget_api_key", "oy2", "[a-z0-9]{43}", 3.5),
  // Slack's browser-session tokens (`xoxc-`), which act as the user.
  prefixed("slack_session_token", "xoxc-", "\\d{8,13}-\\d{8,13}-\\d{8,13}-[a-f0-9]{64}", 3.0),
  // A Claude Code session link lets its holder drive the session.
  {
    kind: "claude_code_session_url",
    category: "secret",
    ignoreCase: true,
    pattern: "\\bclaude\\.ai/code/session_[A-Za-z0-9]{16,64}(?![A-Za-z0-9])",
    validate: (m) => secretLike(m.slice(m.indexOf("session_") + 8), 3.0),
    start: { at: "word", literals: ["claude.ai/code/session_"] },
  },
];
