/**
 * Key leakage: well-formed credentials of model providers, clouds and developer
 * services, private keys, signed tokens, this gateway's own keys, and generic
 * `password=` / `secret=` assignments of real values. Placeholders from
 * documentation and code that reads a key from the environment do not count, nor do
 * identifiers (OAuth client ids, account ids, ARNs, bucket names).
 */
import { ASSIGNMENT_DETECTOR } from "./assignments.ts";
import { CREDENTIAL_FILE_DETECTORS, PASSWORD_HASH_RULE } from "./credential-files.ts";
import { CREDENTIAL_CALL_DETECTORS, UNATTEND_PASSWORD_RULE } from "./credential-calls.ts";
import { CREDENTIAL_COMMAND_DETECTORS } from "./credential-commands.ts";
import { CREDENTIAL_FALLBACK_DETECTORS } from "./credential-fallbacks.ts";
import { CREDENTIAL_NOTE_DETECTORS } from "./credential-notes.ts";
import { CREDENTIAL_COPULA_DETECTORS } from "./credential-copulas.ts";
import { CREDENTIAL_PROSE_DETECTORS } from "./credential-prose.ts";
import { CREDENTIAL_SYNTAX_DETECTORS } from "./credential-syntaxes.ts";
import { CREDENTIAL_GENERIC_DETECTORS } from "./credential-generic.ts";
import { MULTIPLE_ASSIGNMENT_DETECTOR } from "./credential-multiple-assignment.ts";
import { CREDENTIAL_ENCODED_KEY_DETECTORS } from "./credential-encoded-keys.ts";
import { CREDENTIAL_TABLE_RULE } from "./credential-tables.ts";
import { CREDENTIAL_VALUE_FIRST_DETECTOR, CREDENTIAL_VALUE_FIRST_PASSWORD_DETECTOR } from "./credential-value-first.ts";
import {
  CREDENTIAL_FORM_DETECTORS,
  MAVEN_ENCRYPTED_RULE,
  passwordValue,
  plainWord,
  XML_PASSWORD_RULE,
  XML_SETTING_RULE,
} from "./credential-forms.ts";
import type { Detector, GatedSecretRule } from "./detector.ts";
import type { GeneratedRule } from "./gitleaks-rule.ts";
import type { Finding } from "./scan-types.ts";
import { GITLEAKS_RULES } from "./gitleaks-rules.ts";
import { decodesToPlaceholder, looksLikePlaceholder, randomAfter, secretLike } from "./validators.ts";
import { MAILCHIMP_KEY_RULE, VENDOR_PLATFORM_DETECTORS } from "./vendor-platforms.ts";
import { VENDOR_RULESET_DETECTORS } from "./vendor-rulesets.ts";
import { VENDOR_PREFIX_DETECTORS } from "./vendor-prefixes.ts";
import { VENDOR_TOKEN_DETECTORS } from "./vendor-tokens.ts";
import { machineRandom } from "./randomness.ts";
import { firstStartingFrom } from "./sorted-starts.ts";

/** A password in a URL or a command line: not a placeholder, not a variable. */
const passwordLike = (pw: string) => passwordValue(pw, true, 3);

/** OAuth client ids and account ids name an application or an account; they grant nothing alone. */
export const IDENTIFIER_RULE = /-(?:client|access|user-api)-id$/;
const CREDENTIAL_RULES = GITLEAKS_RULES.filter((r) => !IDENTIFIER_RULE.test(r.id));

/**
 * gitleaks' test of a match: the secret (the first capturing group that took part, or
 * the whole match) is no placeholder and reaches the rule's entropy threshold.
 */
/** Checks a gitleaks rule's secret must pass beyond its entropy, by rule id. */
const EXTRA_CHECKS: Record<string, (secret: string) => boolean> = {
  // The rule's secret is the key and its value (`password: Y2hh…`): the value is what decodes.
  "kubernetes-secret-yaml": (secret) => !decodesToPlaceholder(secret.replace(/^[\w.-]+:\s*(?:[|>][-+]?\s+)?/, "").replace(/["']/g, "")),
  // NuGet's `<add key="Password" value="…" />`, its quotes maybe escaped (a config inside a JSON string): a build
  // variable (`$(feed.password)`), an environment reference (`%FeedPassword%`) or `...` is no password.
  "nuget-config-password": (secret) => passwordValue(secret.replace(/^\\?"|\\$/g, ""), true, 8),
};

function gitleaksAccepts(rule: GeneratedRule): (match: string) => boolean {
  const groups = new RegExp(rule.secret, rule.ignoreCase ? "i" : "");
  const extra = EXTRA_CHECKS[rule.id];
  return (match) => {
    const found = groups.exec(match);
    const secret = (
      (rule.secretGroup ? found?.[rule.secretGroup] : found?.slice(1).find((g) => g)) ?? match
    ).replace(/^[`'"\s]+|[`'"\s;]+$/g, "");
    // A rule's group may take the value's quotes (`password="password"`): the value is what stands between them, and the
    // credential's own word there (`password`, `secret`) is a template's stand-in, as in every generic rule.
    return (
      !looksLikePlaceholder(secret) &&
      !plainWord(secret) &&
      (rule.entropy === 0 || secretLike(secret, rule.entropy)) &&
      (!extra || extra(secret))
    );
  };
}

/** A vendor rule from gitleaks that opens with a literal: tried where that literal stands. */
function fromGitleaks(rule: GeneratedRule): Detector {
  return {
    kind: rule.id.replace(/-/g, "_"),
    category: "secret",
    pattern: rule.pattern,
    ignoreCase: rule.ignoreCase || undefined,
    // A word that opens with a digit (ClickHouse's `4b1d…`) is met by the digit-word start, not by a word literal.
    start: rule.prefixes.some((p) => /^\d/.test(p))
      ? { at: "digit-word" }
      : { at: rule.atWord ? "word" : "literal", literals: rule.prefixes },
    validate: gitleaksAccepts(rule),
  };
}

export const GATED_SECRET_RULES: readonly GatedSecretRule[] = [
  ...CREDENTIAL_RULES.filter((r) => r.keywords.length > 0).map((rule) => ({
    kind: rule.id.replace(/-/g, "_"),
    regex: new RegExp(rule.pattern, rule.ignoreCase ? "gi" : "g"),
    keywords: rule.keywords,
    validate: gitleaksAccepts(rule),
  })),
  XML_PASSWORD_RULE,
  XML_SETTING_RULE,
  MAVEN_ENCRYPTED_RULE,
  MAILCHIMP_KEY_RULE,
  PASSWORD_HASH_RULE,
  UNATTEND_PASSWORD_RULE,
  CREDENTIAL_TABLE_RULE,
];

/** The vendor rules tried where their literal opens; ahead of the generic assignment, which they are more precise than. */
const VENDOR_DETECTORS = CREDENTIAL_RULES.filter((r) => r.keywords.length === 0).map(fromGitleaks);

export const SECRET_DETECTORS: Detector[] = [
  {
    kind: "anthropic_key",
    category: "secret",
    pattern: "\\bsk-ant-[a-z]{3,6}\\d{2}-[A-Za-z0-9_-]{20,}",
    validate: randomAfter(/^sk-ant-[a-z]+\d{2}-/),
  },
  {
    kind: "openai_key",
    category: "secret",
    pattern: "\\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}",
    validate: (m) => !m.startsWith("sk-ant-") && randomAfter(/^sk-(?:proj-|svcacct-|admin-|None-)?/)(m),
  },
  {
    kind: "aws_access_key_id",
    category: "secret",
    pattern: "\\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\\b",
    validate: (m) => !/EXAMPLE$/.test(m) && secretLike(m.slice(4), 2.8),
  },
  {
    kind: "aws_secret_access_key",
    category: "secret",
    ignoreCase: true,
    pattern: "\\baws_?secret_?access_?key[\"']?\\s{0,3}[:=]\\s{0,3}[\"']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
    validate: (m) => secretLike(m.slice(-40), 3.5) && !/EXAMPLEKEY$/.test(m),
  },
  {
    kind: "github_token",
    category: "secret",
    // Installation tokens also come as `ghs_<date>_<signed JSON>` (dots and underscores after the first characters).
    pattern: "\\b(?:gh[pousr]_[A-Za-z0-9]{8}[A-Za-z0-9_.-]{28,1024}|github_pat_[A-Za-z0-9_]{60,255})",
    validate: randomAfter(/^(?:gh[pousr]_|github_pat_)/),
    start: { at: "word", literals: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"] },
  },
  {
    kind: "slack_token",
    category: "secret",
    // Classic tokens (`xoxb-<team>-<user>-…`) and the rotating ones (`xoxp-1-…`, `xoxe-1-…`, one digit, a long body).
    pattern: "\\bxox[abposre]-(?:[0-9]{6,}-[A-Za-z0-9-]{8,}|[0-9]-[A-Za-z0-9-]{40,})",
    validate: randomAfter(/^xox[abposre]-/, 2.8),
  },
  {
    kind: "stripe_secret_key",
    category: "secret",
    pattern: "\\b[rs]k_live_[A-Za-z0-9]{20,}",
    validate: randomAfter(/^[rs]k_live_/),
    start: { at: "word", literals: ["sk_live_", "rk_live_"] },
  },
  { kind: "google_api_key", category: "secret", pattern: "\\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])", validate: randomAfter(/^AIza/) },
  {
    kind: "private_key",
    category: "secret",
    pattern: "-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----",
    start: { at: "literal", literals: ["-----BEGIN "] },
    // A key, not the header alone or `...` in documentation: base64 follows (after PEM's `Proc-Type:` headers).
    validate: (m, text, index) => /[A-Za-z0-9+/]{24}/.test(text.slice(index + m.length, index + m.length + 300).split("-----END")[0] ?? ""),
  },
  // The header is bounded: unbounded, a run of "eyJ-eyJ-..." would be re-read from every word start.
  {
    kind: "jwt",
    category: "secret",
    pattern: "\\beyJ[A-Za-z0-9_-]{10,400}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{20,}",
    validate: (m) => secretLike(m.split(".")[2] ?? "", 3.5),
  },
  {
    kind: "gateway_key",
    category: "secret",
    pattern: "\\bgw_(?:live|test)_[0-9A-Za-z]{40}(?![0-9A-Za-z])",
    validate: randomAfter(/^gw_(?:live|test)_/),
  },
  ...VENDOR_DETECTORS,
  ...VENDOR_TOKEN_DETECTORS,
  ...VENDOR_PREFIX_DETECTORS,
  ...VENDOR_PLATFORM_DETECTORS,
  ...VENDOR_RULESET_DETECTORS,
  ...CREDENTIAL_FORM_DETECTORS,
  // Ahead of the assignment: `Credentials: admin/…` is a pair, where the assignment would read `admin` alone and stop.
  ...CREDENTIAL_PROSE_DETECTORS,
  ...CREDENTIAL_COPULA_DETECTORS,
  ASSIGNMENT_DETECTOR,
  MULTIPLE_ASSIGNMENT_DETECTOR,
  // Credentials in a URL (`https://user:password@host`, `redis://:password@host`) and in curl's basic auth (`curl -u name:password`).
  {
    kind: "url_credentials",
    category: "secret",
    pattern: "://[^\\s:/@\"'<>]{0,64}:[^\\s/@\"'<>]{3,128}@",
    start: { at: "literal", literals: ["://"] },
    // SQL Server's JDBC URL writes a port and `;name=value` properties before the `@` of a user (`://db:1433;user=app@corp`):
    // no password there.
    validate: (m) => {
      const password = m.slice(m.indexOf(":", 3) + 1, -1);
      // GitHub's `https://<token>:x-oauth-basic@github.com`: the password is a fixed word, the token is the user.
      if (/^x-oauth-basic$/i.test(password)) return machineRandom(m.slice(3, m.indexOf(":", 3)));
      return !/;[\w ]+=/.test(password) && passwordLike(password);
    },
  },
  {
    kind: "curl_basic_auth",
    category: "secret",
    pattern: "\\bcurl [^\\n]{0,256}?(?:-u|--user)(?:=|[ \\t]{1,5})[\"']?[^\\s:\"']{1,64}:[\"']?[^\\s\"']{3,128}",
    validate: (m) => passwordLike(m.slice(m.lastIndexOf(":") + 1).replace(/^["']/, "")),
  },
  ...CREDENTIAL_NOTE_DETECTORS,
  ...CREDENTIAL_COMMAND_DETECTORS,
  ...CREDENTIAL_FALLBACK_DETECTORS,
  ...CREDENTIAL_CALL_DETECTORS,
  ...CREDENTIAL_SYNTAX_DETECTORS,
  ...CREDENTIAL_FILE_DETECTORS,
  ...CREDENTIAL_ENCODED_KEY_DETECTORS,
];

/**
 * A generated value after a credential's word, in whatever form the rules above do not read: tried after every other
 * detector at a start (engine.ts lists them last), since the first to match there decides and these read the widest.
 */
export const GENERIC_SECRET_DETECTORS: Detector[] = [
  ...CREDENTIAL_GENERIC_DETECTORS,
  CREDENTIAL_VALUE_FIRST_DETECTOR,
  CREDENTIAL_VALUE_FIRST_PASSWORD_DETECTOR,
];

/** Findings that name no kind: a credential's name and a value (`API_KEY=...`), a generated value after `token`. */
const GENERIC_KINDS = new Set(["password_assignment", "generic_credential"]);

/**
 * A generic finding over a value another rule named is that credential, found once: a vendor's rule names it
 * before both, a named assignment before the bare `token …` reading.
 */
export function withoutCoveredGenerics(findings: Finding[]): Finding[] {
  if (!findings.some((f) => GENERIC_KINDS.has(f.kind))) return findings;
  // The secret findings by start, so each generic finding meets only those that can overlap it
  // (starting after its start less the longest finding, before its end): a text dense with
  // credentials has thousands, and comparing every pair made the scan quadratic.
  const secrets = findings.filter((x) => x.category === "secret").sort((a, b) => a.start - b.start);
  let longest = 0;
  for (const x of secrets) longest = Math.max(longest, x.end - x.start);
  const named = (f: Finding) => {
    for (let i = firstStartingFrom(secrets, f.start - longest); i < secrets.length; i++) {
      const x = secrets[i] as Finding;
      if (x.start >= f.end) return false;
      // Two generic readings of one credential (from its name, from its value) are one finding, the one that opens first.
      if (
        x !== f &&
        x.end > f.start &&
        (!GENERIC_KINDS.has(x.kind) || (f.kind === "generic_credential" && (x.kind !== f.kind || x.start < f.start)))
      )
        return true;
    }
    return false;
  };
  return findings.filter((f) => !GENERIC_KINDS.has(f.kind) || !named(f));
}
