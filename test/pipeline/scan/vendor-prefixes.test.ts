/**
 * The vendor formats of vendor-prefixes.ts: each found in the shape its vendor documents,
 * and its documentation placeholders (`whsec_xxxx`, `tvly-YOUR_API_KEY`, a short body)
 * not flagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";
import { body, hex, lower } from "./token-bodies.ts";

describe("found", () => {
  test.each([
    ["google_oauth_token", `Authorization: ya29.${body(120, 1)}`],
    ["google_oauth_token", `"refresh_token": "1//0${body(90, 2)}"`],
    ["google_oauth_client_secret", `client_secret=GOCSPX-${body(28, 3)}`],
    ["stripe_webhook_secret", `STRIPE_WEBHOOK_SECRET=whsec_${body(32, 4)}`],
    ["square_oauth_secret", `square: sq0csp-${body(43, 5)}`],
    ["firebase_server_key", `serverKey = "AAAA${body(7, 6)}:${body(140, 7)}"`],
    ["azure_sas_token", `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sp=r&se=2030-01-01&sig=${body(43, 8)}%3D`],
    ["discord_webhook", `https://discord.com/api/webhooks/123456789012345678/${body(68, 9)}`],
    ["nvidia_api_key", `NVIDIA_API_KEY=nvapi-${body(64, 10)}`],
    ["tavily_api_key", `tvly-dev-${body(32, 11)}`],
    ["firecrawl_api_key", `FIRECRAWL_API_KEY=fc-${hex(32, 12)}`],
    ["elevenlabs_api_key", `xi-api-key: sk_${hex(48, 13)}`],
    ["pinecone_api_key", `pc = Pinecone(api_key="pcsk_${body(6, 14)}_${body(60, 15)}")`],
    ["neon_api_key", `NEON_API_KEY=napi_${lower(64, 16)}`],
    ["render_api_key", `rnd_${body(32, 17)}`],
    ["posthog_personal_api_key", `phx_${body(43, 18)}`],
    ["resend_api_key", `resend = Resend("re_${body(8, 19)}_${body(24, 20)}")`],
    ["tailscale_key", `TS_AUTHKEY=tskey-auth-${body(12, 21)}-${body(33, 22)}`],
    ["castai_api_key", `castai_v1_${body(64, 23)}_${body(8, 24)}`],
    ["chieftools_token", `ctp_${body(36, 25)}`],
    ["adyen_api_key", `ADYEN_API_KEY=AQE${lower(6, 26)}.${body(60, 27)}`],
    ["braintree_access_token", `access_token$production$${lower(16, 28)}$${hex(32, 29)}`],
    ["braintree_access_token", `authorization: "sandbox_${lower(8, 30)}_${lower(16, 31)}"`],
    ["datafactory_runtime_key", `IR@0f3c2d9e-4b1a-4c8e-9f7d-2a6b5c4d3e1f@adf-prod@we@${body(43, 32)}=`],
    ["django_secret_key", `SECRET_KEY = "django-insecure-${body(40, 33)}"`],
    ["tencent_secret_id", `SecretId: AKID${body(32, 36)}`],
    ["salesforce_access_token", `Authorization: OAuth 00D5j00000${body(5, 37)}!${body(96, 38)}`],
    ["nuget_api_key", `dotnet nuget push pkg.nupkg --api-key oy2${lower(43, 41)}`],
    ["slack_session_token", `xoxc-5829301746-7302918465-9182736450-${hex(64, 34)}`],
    ["claude_code_session_url", `see https://claude.ai/code/session_${body(24, 35)}`],
  ])("%s in %p", (kind, text) => {
    expect(secretKinds(text)).toContain(kind);
  });
});

describe("placeholders and look-alikes are not", () => {
  test.each([
    "STRIPE_WEBHOOK_SECRET=whsec_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "TAVILY_API_KEY=tvly-YOUR_API_KEY",
    "nvapi-" + "x".repeat(64),
    "GOCSPX-your-client-secret",
    "fc-YOUR_API_KEY",
    "https://discord.com/api/webhooks/123456789012345678/your-webhook-token",
    "SECRET_KEY = 'django-insecure-change-me'",
    "https://claude.ai/code/session_short",
    "https://claude.ai/chat/0f3c2d9e-4b1a-4c8e-9f7d-2a6b5c4d3e1f",
    // A blob URL without a signature, and a `sig=` outside a SAS URL.
    "https://acct.blob.core.windows.net/container/file.txt?sv=2022-11-02",
    "GET /api?sig=0123456789abcdef0123456789abcdef01234567",
    // Identifiers: the production database's name, a PostHog project key (public by design).
    "production_database_name: orders",
    `phc_${"a".repeat(43)}`,
    "SecretId: AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE",
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});

test("a SAS signature that is not valid percent-encoding is scanned, never the decoder's exception", () => {
  // The probe that found it: any caller's prompt holding this made the call a 500.
  for (const sig of ["%zz".repeat(15), "%C3%28".repeat(8), `${body(40, 42)}%E0%A4`])
    expect(() => secretKinds(`https://x.blob.core.windows.net/c?sv=2020-01-01&sig=${sig}`)).not.toThrow();
  expect(secretKinds(`https://x.blob.core.windows.net/c?sv=2020-01-01&sig=${"%zz".repeat(15)}`)).toEqual([]);
});
