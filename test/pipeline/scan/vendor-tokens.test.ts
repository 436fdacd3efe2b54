/**
 * Vendor credentials that gitleaks' rule set lacks: each format found in the carriers
 * it is met in (env files, configs, shell, chat), its documentation placeholders not,
 * and identifiers (OAuth client ids) never.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

/** A deterministic random body: tests must not depend on a real token, nor on chance. */
function body(n: number, alphabet: string, seed: number): string {
  let x = seed >>> 0 || 1;
  let out = "";
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += alphabet[(x >>> 0) % alphabet.length];
  }
  return out;
}
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

const adoPat = `${body(52, ALNUM, 7)}JQQJ99${body(18, ALNUM, 8)}AZDO${body(4, ALNUM, 9)}`;

describe("vendor tokens are found", () => {
  test.each([
    ["dockerhub_token", `docker login -u ci --password dckr_pat_${body(27, ALNUM, 1)}`],
    ["dockerhub_token", `DOCKERHUB_TOKEN: dckr_oat_${body(27, ALNUM, 2)}`],
    ["doppler_token", `export DOPPLER_TOKEN=dp.st.prd.${body(43, ALNUM, 3)}`],
    ["doppler_token", `token = "dp.sa.${body(43, ALNUM, 4)}"`],
    // gitleaks has the personal tokens.
    ["doppler_api_token", `my Doppler key dp.pt.${body(43, ALNUM, 5)} stopped working`],
    ["cratesio_token", `[registry]\ntoken = "cio${body(32, ALNUM, 6)}"`],
    ["azure_devops_pat", `git clone https://dev.azure.com/org/repo # PAT ${adoPat}`],
    ["azure_devops_pat", `AZURE_DEVOPS_EXT_PAT=${body(52, BASE32, 10)}`],
    ["adafruit_io_key", `ADAFRUIT_IO_KEY = "aio_${body(28, ALNUM, 11)}"`],
    ["dependency_track_key", `-H "X-Api-Key: odt_${body(32, ALNUM, 12)}"`],
    ["dependency_track_key", `apiKey: odt_${body(8, ALNUM, 13)}_${body(32, ALNUM, 14)}`],
    ["codeclimate_token", `CC_TEST_REPORTER_ID=${body(64, HEX, 15)}`],
    ["codeclimate_token", `codeclimate_api_token: ${body(40, HEX, 16)}`],
    ["groq_api_key", `GROQ_API_KEY=gsk_${body(52, ALNUM, 17)}`],
    ["langsmith_api_key", `LANGSMITH_API_KEY=lsv2_pt_${body(32, HEX, 18)}_${body(10, HEX, 19)}`],
    ["replicate_api_token", `client = replicate.Client(api_token="r8_${body(37, ALNUM, 20)}")`],
    ["xai_api_key", `XAI_API_KEY=xai-${body(80, ALNUM, 21)}`],
    ["supabase_token", `supabase login --token sbp_${body(40, HEX, 22)}`],
    ["figma_token", `X-Figma-Token: figd_${body(43, ALNUM, 23)}`],
    ["bitbucket_app_password", `BITBUCKET_APP_PASSWORD=ATBB${body(32, ALNUM, 24)}`],
    ["onepassword_service_token", `OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ${body(300, ALNUM + "-_", 25)}`],
    ["akamai_edgegrid_token", `client_token = akab-${body(16, BASE32, 26)}-${body(16, BASE32, 27)}`],
    ["circleci_token", `CIRCLE_TOKEN=CCIPAT_${body(22, ALNUM, 28)}_${body(40, HEX, 29)}`],
    ["cloudflare_api_token", `CLOUDFLARE_API_TOKEN=cfut_${body(40, ALNUM, 33)}${body(8, HEX, 34)}`],
    ["cloudflare_api_token", `cfat_${body(40, ALNUM, 35)}${body(8, HEX, 36)}`],
    ["twilio_api_key", `TWILIO_API_KEY=SK${body(32, HEX, 37)}`],
    ["contentful_token", `CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-${body(43, ALNUM + "-_", 44)}`],
    ["instagram_access_token", `access_token=IGQV${body(150, ALNUM + "-_", 45)}`],
    ["discord_bot_token", `client.login("${btoa("812345678901234567").replace(/=+$/, "")}.${body(6, ALNUM, 38)}.${body(38, ALNUM, 39)}")`],
  ])("%s in %p", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });
});

describe("placeholders and identifiers are not", () => {
  test.each([
    "DOCKERHUB_TOKEN=dckr_pat_xxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "docker login --password dckr_pat_YOUR_TOKEN_HERE",
    "DOPPLER_TOKEN=dp.st.dev.XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "ADAFRUIT_IO_KEY=aio_xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "token = ${CARGO_REGISTRY_TOKEN}",
    "AZURE_DEVOPS_EXT_PAT=<your-personal-access-token>",
    "CC_TEST_REPORTER_ID=${{ secrets.CC_TEST_REPORTER_ID }}",
    "GROQ_API_KEY=gsk_...",
    // OAuth client ids name an application; they grant nothing alone.
    `ADOBE_CLIENT_ID=${body(32, HEX, 30)}`,
    `bitbucket_client_id: ${body(32, ALNUM.toLowerCase(), 31)}`,
    `DISCORD_CLIENT_ID=${body(18, "0123456789", 32)}`,
    "GOOGLE_CLIENT_ID=1234567890-abc123def456ghi789.apps.googleusercontent.com",
    "GITHUB_CLIENT_ID=Iv1.8a61f9b3a7aba766",
    // The EdgeGrid API host names a tenant; a 32-hex Twilio SID of letters only or digits only is no key.
    `host = akab-${body(16, BASE32, 40)}-${body(16, BASE32, 41)}.luna.akamaiapis.net`,
    "SK00000000000000000000000000000000",
    "CFPAT-A7O2nZsU4oCP2GGNt24_LKEpxH5CTdQhKjr-EXAMPLE",
    "cfut_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx00000000",
    // Dotted base64 that does not open with a user id is no Discord token.
    `${btoa("not a discord user id").replace(/=+$/, "")}.${body(6, ALNUM, 42)}.${body(38, ALNUM, 43)}`,
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
