/**
 * Vendor credentials that gitleaks' rule set (scanner/gitleaks/) lacks, written from
 * each vendor's documentation of its token format: a fixed prefix and a random body,
 * or, for tokens without a prefix (old Azure DevOps PATs, CodeClimate), the name
 * they are assigned to. Each body must look random, so documentation placeholders
 * (`dckr_pat_xxxx`, `aio_YOUR_KEY`) pass.
 */
import type { Detector } from "./detector.ts";
import { randomAfter, secretLike } from "./validators.ts";

/** The value of `name = value` / `name: "value"`: what follows the sign and an opening quote. */
const assignedValue = (m: string) => m.replace(/^[^:=]*(?::=|=>|[:=])\s*["']?/, "");

const ASSIGN = `["']?\\s{0,3}(?::=|=>|[:=])\\s{0,3}["']?`;

export const VENDOR_TOKEN_DETECTORS: Detector[] = [
  // Docker Hub personal (`dckr_pat_`) and organization (`dckr_oat_`) access tokens: 27 characters after the prefix.
  {
    kind: "dockerhub_token",
    category: "secret",
    pattern: "\\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{24,64}(?![A-Za-z0-9_-])",
    validate: randomAfter(/^dckr_(?:pat|oat)_/),
    start: { at: "word", literals: ["dckr_pat_", "dckr_oat_"] },
  },
  // Doppler: personal, service, service-account, CLI, SCIM and audit tokens (`dp.st.<config>.<secret>` names a config first).
  {
    kind: "doppler_token",
    category: "secret",
    pattern: "\\bdp\\.(?:pt|st|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,40}\\.)?[A-Za-z0-9]{40,64}(?![A-Za-z0-9])",
    validate: (m) => secretLike(m.slice(m.lastIndexOf(".") + 1), 3.5),
    start: { at: "word", literals: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."] },
  },
  // crates.io API tokens: `cio` and 32 letters and digits.
  {
    kind: "cratesio_token",
    category: "secret",
    pattern: "\\bcio[A-Za-z0-9]{32}(?![A-Za-z0-9])",
    validate: (m) => /\d/.test(m) && /[A-Z]/.test(m.slice(3)) && randomAfter(/^cio/, 3.5)(m),
  },
  // Adafruit IO keys: `aio_` and 28 letters and digits.
  { kind: "adafruit_io_key", category: "secret", pattern: "\\baio_[A-Za-z0-9]{28}(?![A-Za-z0-9])", validate: randomAfter(/^aio_/) },
  // Dependency-Track API keys: `odt_`, an optional 8-character key id and `_`, then the secret.
  {
    kind: "dependency_track_key",
    category: "secret",
    pattern: "\\bodt_(?:[A-Za-z0-9]{8}_)?[A-Za-z0-9]{32,64}(?![A-Za-z0-9])",
    validate: (m) => secretLike(m.slice(m.lastIndexOf("_") + 1), 3.5),
  },
  // Azure DevOps PATs since 2024: 84 characters, the `JQQJ9` mark at 52 and `AZDO` at 76 (Microsoft's identifiable-key format).
  {
    kind: "azure_devops_pat",
    category: "secret",
    pattern: "(?<![A-Za-z0-9+/])[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9]{18}AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9])",
    validate: (m) => secretLike(m.slice(0, 52), 3.5),
    start: { at: "base64-run" },
  },
  // Older Azure DevOps PATs (52 base32 characters) have no mark: found by the name they are assigned to.
  {
    kind: "azure_devops_pat",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:azure_?devops|azdo|ado|vsts|devops|system_accesstoken)[\\w.-]{0,20}${ASSIGN}[a-z2-7]{52}(?![a-z0-9])`,
    validate: (m) => secretLike(assignedValue(m), 3.5),
    start: { at: "word", literals: ["azure", "azdo", "ado", "vsts", "devops", "system_accesstoken"] },
  },
  // CodeClimate: the test reporter id (64 hex) and API tokens (40 hex), by name.
  {
    kind: "codeclimate_token",
    category: "secret",
    ignoreCase: true,
    pattern: `\\b(?:codeclimate|code_climate|cc_test_reporter_id|cc_reporter_id)[\\w.-]{0,20}${ASSIGN}[a-f0-9]{40,64}(?![a-z0-9])`,
    validate: (m) => secretLike(assignedValue(m), 3.0),
    start: { at: "word", literals: ["codeclimate", "code_climate", "cc_test_reporter_id", "cc_reporter_id"] },
  },
  // Model and developer platforms with documented prefixes: Groq, LangSmith, Replicate, xAI, Supabase, Figma, Bitbucket app passwords.
  { kind: "groq_api_key", category: "secret", pattern: "\\bgsk_[A-Za-z0-9]{48,56}(?![A-Za-z0-9])", validate: randomAfter(/^gsk_/, 3.5) },
  {
    kind: "langsmith_api_key",
    category: "secret",
    pattern: "\\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![A-Za-z0-9])",
    validate: randomAfter(/^lsv2_(?:pt|sk)_/),
    start: { at: "word", literals: ["lsv2_pt_", "lsv2_sk_"] },
  },
  { kind: "replicate_api_token", category: "secret", pattern: "\\br8_[A-Za-z0-9]{37}(?![A-Za-z0-9])", validate: randomAfter(/^r8_/, 3.5) },
  { kind: "xai_api_key", category: "secret", pattern: "\\bxai-[A-Za-z0-9]{70,90}(?![A-Za-z0-9])", validate: randomAfter(/^xai-/, 3.5) },
  { kind: "supabase_token", category: "secret", pattern: "\\bsbp_[a-f0-9]{40}(?![A-Za-z0-9])", validate: randomAfter(/^sbp_/) },
  {
    kind: "figma_token",
    category: "secret",
    pattern: "\\bfigd_[A-Za-z0-9_-]{40,64}(?![A-Za-z0-9_-])",
    validate: randomAfter(/^figd_/, 3.5),
  },
  {
    kind: "bitbucket_app_password",
    category: "secret",
    pattern: "\\bATBB[A-Za-z0-9]{28,40}(?![A-Za-z0-9])",
    validate: randomAfter(/^ATBB/, 3.5),
  },
  // 1Password service-account tokens: `ops_` and a base64url JSON document (`eyJ…`).
  {
    kind: "onepassword_service_token",
    category: "secret",
    pattern: "\\bops_eyJ[A-Za-z0-9_-]{100,2048}",
    validate: randomAfter(/^ops_/, 4.0),
    start: { at: "word", literals: ["ops_eyJ"] },
  },
  // Akamai EdgeGrid client and access tokens: `akab-`, 16 characters, `-`, 16 characters; not the API host (`akab-….luna.akamaiapis.net`).
  {
    kind: "akamai_edgegrid_token",
    category: "secret",
    pattern: "\\bakab-[a-z0-9]{16}-[a-z0-9]{16}(?![A-Za-z0-9.-])",
    validate: randomAfter(/^akab-/),
  },
  // CircleCI personal API tokens: `CCIPAT_`, 22 characters, `_`, 40 hex.
  {
    kind: "circleci_token",
    category: "secret",
    pattern: "\\bCCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}(?![A-Za-z0-9])",
    validate: randomAfter(/^CCIPAT_/, 3.5),
  },
  // Cloudflare's scannable API tokens (2025): `cfat_` account, `cfut_` user tokens, `cfk_` API keys; 40 characters and an 8-hex checksum.
  {
    kind: "cloudflare_api_token",
    category: "secret",
    pattern: "\\bcf(?:at|ut|k)_[A-Za-z0-9]{40}[a-f0-9]{8}(?![A-Za-z0-9])",
    validate: (m) => secretLike(m.slice(m.indexOf("_") + 1, -8), 3.5),
    start: { at: "word", literals: ["cfat_", "cfut_", "cfk_"] },
  },
  // Twilio API key SIDs: `SK` and 32 hex (gitleaks' rule is left out: its only keyword is two letters).
  {
    kind: "twilio_api_key",
    category: "secret",
    pattern: "\\bSK[0-9a-fA-F]{32}(?![A-Za-z0-9])",
    validate: (m) => /\d/.test(m.slice(2)) && /[a-fA-F]/.test(m.slice(2)) && secretLike(m.slice(2), 3.0),
    // A trigger literal needs three characters: `SK` and each hex digit.
    start: { at: "word", literals: [..."0123456789abcdefABCDEF"].map((h) => `SK${h}`) },
  },
  // Discord bot tokens: the bot's user id in base64, `.`, 6 characters, `.`, 27 or more; the first part must decode to the id's digits.
  {
    kind: "discord_bot_token",
    category: "secret",
    pattern: "(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])",
    validate: (m) => {
      const [id = "", , hmac = ""] = m.split(".");
      let decoded = "";
      try {
        decoded = atob(id.replace(/-/g, "+").replace(/_/g, "/"));
      } catch {
        return false;
      }
      return /^\d{17,20}$/.test(decoded) && secretLike(hmac, 3.5);
    },
    start: { at: "base64-run" },
  },
  // Contentful personal access tokens: `CFPAT-` and 43 characters.
  {
    kind: "contentful_token",
    category: "secret",
    pattern: "\\bCFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])",
    validate: randomAfter(/^CFPAT-/, 3.5),
  },
  // Instagram (Basic Display / Graph) user access tokens: `IGQV` and a long base64url body.
  {
    kind: "instagram_access_token",
    category: "secret",
    pattern: "\\bIGQV[A-Za-z0-9_-]{96,400}(?![A-Za-z0-9_-])",
    validate: randomAfter(/^IGQV/, 3.5),
  },
];
