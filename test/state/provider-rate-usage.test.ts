import { expect, test } from "bun:test";
import { parseReset, ProviderRateUsage, reportedLimits } from "../../src/state/provider-rate-usage.ts";

const t0 = Date.UTC(2026, 10, 25, 10, 0, 5);

test("OpenAI-style and Anthropic-style headers are read, with their reset forms", () => {
  const openai = new Headers({
    "x-ratelimit-limit-requests": "100",
    "x-ratelimit-remaining-requests": "20",
    "x-ratelimit-reset-requests": "6m0s",
    "x-ratelimit-limit-tokens": "1000",
    "x-ratelimit-remaining-tokens": "900",
    "x-ratelimit-reset-tokens": "20ms",
  });
  expect(reportedLimits(openai, t0)).toEqual({
    requests: { limit: 100, remaining: 20, resetAt: t0 + 360_000 },
    tokens: { limit: 1000, remaining: 900, resetAt: t0 + 20 },
  });
  const anthropic = new Headers({
    "anthropic-ratelimit-requests-limit": "50",
    "anthropic-ratelimit-requests-remaining": "5",
    "anthropic-ratelimit-requests-reset": "2026-11-25T10:01:00Z",
  });
  expect(reportedLimits(anthropic, t0)).toEqual({ requests: { limit: 50, remaining: 5, resetAt: Date.UTC(2026, 10, 25, 10, 1) } });
  expect(reportedLimits(new Headers({ "x-ratelimit-limit-requests": "abc", "x-ratelimit-remaining-requests": "1" }), t0)).toEqual({});
  expect(parseReset("1.5s", t0)).toBe(t0 + 1500);
  expect(parseReset("nonsense", t0)).toBeNull();
});

test("requests and tokens are counted per minute and per day", () => {
  const u = new ProviderRateUsage();
  u.sent("prv_1", new Headers(), t0);
  u.sent("prv_1", new Headers(), t0 + 1000);
  u.tokens("prv_1", 300, t0 + 1000);
  expect(u.snapshot("prv_1", t0 + 2000)).toMatchObject({ requestsThisMinute: 2, tokensThisMinute: 300, requestsToday: 2 });
  expect(u.snapshot("prv_1", t0 + 60_000)).toMatchObject({ requestsThisMinute: 0, tokensThisMinute: 0, requestsToday: 2 });
  expect(u.snapshot("prv_1", t0 + 86_400_000)).toMatchObject({ requestsToday: 0 });
});
