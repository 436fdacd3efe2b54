/**
 * The vendor formats of vendor-platforms.ts: each found in the shape its vendor documents,
 * and placeholders, public keys and identifiers beside them not flagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";
import { body, digits, hex, lower, upper, uuid } from "./token-bodies.ts";

describe("found", () => {
  test.each([
    ["notion_token", `NOTION_TOKEN=secret_${body(43, 1)}`],
    [
      "aws_session_token",
      `aws_session_token = FwoGZXIvYXdz${body(300, 120, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}`,
    ],
    [
      "aws_session_token",
      `AWS_SESSION_TOKEN=IQoJb3JpZ2luX2Vj${body(400, 121, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}==`,
    ],
    ["newrelic_insert_key", `X-Insert-Key: NRII-${body(32, 122)}`],
    ["grafana_api_key", `GRAFANA_API_KEY=eyJrIjoi${btoa(`${body(32, 124)}","n":"ci","id":1}`).slice(8)}`],
    ["discord_user_token", `mfa.${body(84, 125)}`],
    ["zapier_webhook", `curl -X POST https://hooks.zapier.com/hooks/catch/${digits(7, 126)}/${lower(7, 127)}/`],
    ["linear_oauth_token", `Authorization: Bearer lin_oauth_${hex(64, 130)}`],
    ["brevo_smtp_key", `SMTP_PASS=xsmtpsib-${hex(64, 131)}-${body(16, 132)}`],
    ["e2b_api_key", `E2B_API_KEY=e2b_${hex(40, 134)}`],
    ["cerebras_api_key", `CEREBRAS_API_KEY=csk-${lower(48, 135)}`],
    ["jina_api_key", `Authorization: Bearer jina_${body(60, 136)}`],
    ["axiom_token", `AXIOM_TOKEN=xaat-${uuid(137)}`],
    ["honeycomb_ingest_key", `HONEYCOMB_API_KEY=hcaik_${lower(58, 142)}`],
    ["brave_search_key", `X-Subscription-Token: BSA${body(28, 143)}`],
    ["mem0_api_key", `MEM0_API_KEY=m0-${body(40, 144)}`],
    ["browserbase_key", `BROWSERBASE_API_KEY=bb_live_${body(27, 145)}`],
    ["anyscale_key", `ANYSCALE_API_KEY=esecret_${lower(30, 146)}`],
    ["woocommerce_key", `consumer_key=ck_${hex(40, 147)}&consumer_secret=cs_${hex(40, 148)}`],
    [
      "azure_sas_token",
      `Authorization: SharedAccessSignature sr=myhub.azure-devices.net%2Fdevices%2Fdev1&sig=${body(43, 151)}%3D&se=1735689600`,
    ],
    ["azure_function_key", `https://orders-fn.azurewebsites.net/api/HttpTrigger1?code=${body(54, 150)}==`],
    ["newrelic_api_key", `NRAK-${upper(27, 2)}`],
    ["newrelic_api_key", `newrelic api key NRAA-${upper(27, 3)}`],
    ["sentry_org_token", `SENTRY_AUTH_TOKEN=sntrys_${body(120, 4)}`],
    ["netlify_token", `netlify deploy --auth nfp_${body(40, 5)}`],
    ["sonarqube_token", `sonar.token=squ_${hex(40, 6)}`],
    ["sonarqube_token", `SONAR_TOKEN: sqa_${hex(40, 7)}`],
    ["buildkite_token", `BUILDKITE_API_TOKEN=bkua_${hex(40, 8)}`],
    ["together_api_key", `client = Together(api_key="tgp_v1_${body(43, 9)}")`],
    ["supabase_secret_key", `SUPABASE_SECRET_KEY=sb_secret_${body(32, 90)}`],
    ["huggingface_org_token", `api_org_${body(34, 91)}`],
    ["fireworks_api_key", `fw_${body(24, 10)}`],
    ["runpod_api_key", `rpa_${upper(40, 11)}`],
    ["clickup_token", `Authorization: pk_${digits(8, 12)}_${upper(32, 13)}`],
    ["typeform_token", `tfp_${body(44, 14)}`],
    ["hubspot_token", `HUBSPOT_TOKEN=pat-na1-${uuid(15)}`],
    ["matrix_access_token", `"access_token": "syt_${body(12, 20)}_${body(20, 21)}_${body(6, 22)}"`],
    ["launchdarkly_key", `LD_SDK_KEY=sdk-${uuid(23)}`],
    ["launchdarkly_key", `api-${uuid(28)}`],
    ["mailgun_api_key", `the mailgun private key is key-${hex(32, 33)}`],
    ["dropbox_access_token", `dbx = Dropbox("sl.${body(140, 34)}")`],
    ["mapbox_secret_token", `MAPBOX_SECRET=sk.eyJ1Ijoi${body(24, 35)}.${body(22, 36)}`],
    ["yandex_api_key", `Api-Key AQVN${body(36, 37)}`],
    ["yandex_oauth_token", `OAuth y0_${body(56, 38)}`],
    ["twitter_bearer_token", `BEARER=AAAAAAAAAAAAAAAAAAAAA${body(80, 39)}`],
    // The app's id, then the second run of A (its zero bytes), then the URL-encoded key.
    ["twitter_bearer_token", `TWITTER_BEARER=AAAAAAAAAAAAAAAAAAAAA${body(4, 56)}AAAAAAA${body(30, 57)}%2B${body(40, 58)}`],
    ["flutterwave_secret_key", `FLWSECK-${hex(32, 40)}-X`],
    ["razorpay_key", `rzp_live_${body(14, 41)}`],
    ["mercadopago_access_token", `APP_USR-${digits(16, 42)}-${digits(6, 43)}-${hex(32, 44)}-${digits(9, 45)}`],
    ["plaid_access_token", `access-production-${uuid(46)}`],
    ["asana_token", `ASANA_PAT=2/${digits(16, 51)}/${digits(16, 52)}:${hex(32, 53)}`],
    ["telegram_bot_token", `bot = Bot("${digits(10, 54)}:AA${body(33, 55)}")`],
    ["mailchimp_api_key", `mc.setConfig({ apiKey: "${hex(32, 56)}-us21" })`],
    ["teams_webhook", `https://corp.webhook.office.com/webhookb2/${uuid(70)}@${uuid(75)}/IncomingWebhook/${hex(32, 80)}/${uuid(81)}`],
    [
      "logic_app_trigger_url",
      `https://prod-12.westus.logic.azure.com:443/workflows/${hex(32, 86)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${body(43, 87)}`,
    ],
    ["bitbucket_dc_token", `git -c http.extraHeader="Authorization: Bearer BBDC-${body(44, 90)}" clone`],
    ["bitbucket_dc_token", `BITBUCKET_HTTP_TOKEN=BBDC-${body(44, 91)}`],
    // Dropbox long-lived tokens under names that say nothing, both runs of `A`s.
    ["dropbox_access_token", `const t = "${body(11, 92)}AAAAAAAAAA${body(43, 93)}";`],
    ["dropbox_access_token", `cfg.k = '${body(10, 94)}AAAAAAAAAA${body(44, 95, "abcdefghijkmnop0123456789_-XYZ")}'`],
    ["atlassian_api_token", `JIRA_TOKEN_2 = "${body(24, 96)}"`],
    ["atlassian_api_token", `confluence.apiToken: ${body(24, 97)}`],
    ["atlassian_api_token", `atlassian_v2 := "${body(24, 98)}"`],
  ])("%s in %p", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });
});

describe("placeholders, public keys and identifiers are not", () => {
  test.each([
    "NOTION_TOKEN=secret_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    `NRII-${"x".repeat(32)}`,
    "https://hooks.zapier.com/hooks/catch/000000/xxxxxx/",
    `lin_oauth_${"0".repeat(64)}`,
    "E2B_API_KEY=e2b_your_api_key_here",
    `consumer_key=ck_${"x".repeat(40)}`,
    "https://orders-fn.azurewebsites.net/api/HttpTrigger1?code=<your-function-key>",
    "BSAFETY manual",
    "SharedAccessSignature sr=myhub.azure-devices.net&sig=<signature>&se=1735689600",
    `mfa.${"X".repeat(84)}`,
    "set secret_key_base in config/credentials.yml.enc",
    `NRAK-${"X".repeat(27)}`,
    "sonar.token=squ_0000000000000000000000000000000000000000",
    // Mapbox's public tokens are meant to ship in web pages.
    `pk.eyJ1Ijoi${body(24, 60)}.${body(22, 61)}`,
    // A UUID after api- in a URL path is an identifier.
    `https://app.corp.example/api-${"0".repeat(8)}`,
    "api-gateway-2024",
    `sb_publishable_${body(32, 92)}`,
    "key-value store",
    "en-us locale, en-US spelling",
    `${hex(32, 62)}-usage`,
    // A Twilio account SID and a plain hex digest are identifiers.
    `AC${hex(32, 63)}`,
    `sha256: ${hex(64, 64)}`,
    "1/2 cup of sugar, 2/3 of the flour",
    "tel 0612345678:AA shift",
    "Post to the channel's webhook.office.com/webhookb2/ URL from the connector page",
    `https://prod-12.westus.logic.azure.com:443/workflows/${hex(32, 88)}/triggers/manual/paths/invoke?api-version=2016-06-01`,
    `BBDC-${"x".repeat(44)}`,
    // Runs of `A`s in padding and in base64 of zeros are no Dropbox tokens.
    `${"A".repeat(64)}`,
    `data: ${"AAAAAAAAAAAAAAAAAAAA".repeat(3)}AAAA`,
    // An Atlassian product's name over an identifier, a word run or a placeholder.
    'jira_project = "PROJECTKEYABCDEFGHIJKLM12"',
    "confluence_space: engineeringhandbookpages",
    "JIRA_TOKEN=xxxxxxxxxxxxxxxxxxxxxxxx",
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});

test("a SharedAccessSignature whose sig is not valid UTF-8 when decoded is scanned, never the decoder's exception", () => {
  for (const sig of ["%C3%28".repeat(8), `${"%E0%A4".repeat(4)}abcdefgh`])
    expect(() => secretKinds(`Authorization: SharedAccessSignature sr=hub.azure-devices.net&sig=${sig}&se=1735689600`)).not.toThrow();
});
