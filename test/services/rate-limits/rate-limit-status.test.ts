import { expect, test } from "bun:test";
import { providerStatus, rateStatusReport, reportedAsOf, stateOf } from "../../../src/services/rate-limits/rate-limit-status.ts";
import { type ProviderRateSnapshot, ProviderRateUsage } from "../../../src/state/provider-rate-usage.ts";

const now = Date.UTC(2026, 10, 25, 10, 0, 30);
const snap = (over: Partial<ProviderRateSnapshot> = {}): ProviderRateSnapshot => ({
  minuteStart: Date.UTC(2026, 10, 25, 10),
  requestsThisMinute: 0,
  tokensThisMinute: 0,
  dayStart: Date.UTC(2026, 10, 25),
  requestsToday: 0,
  reported: {},
  ...over,
});

test("bands: ok under 75, warning 75-89, critical from 90", () => {
  expect([74.99, 75, 89.99, 90, 120].map(stateOf)).toEqual(["ok", "warning", "warning", "critical", "critical"]);
});

test("configured limits win over reported ones; the most used limit decides", () => {
  const s = providerStatus(
    "openai",
    "prv_1",
    { requestsPerMinute: 10, tokensPerMinute: 1000 },
    snap({ requestsThisMinute: 5, tokensThisMinute: 800, reported: { requests: { limit: 10, remaining: 0, resetAt: null } } }),
    now,
  );
  expect(s).toMatchObject({
    source: "configured",
    limits: { requestsPerMinute: 10, tokensPerMinute: 1000 },
    usage: { requestsPerMinute: 5, tokensPerMinute: 800 },
    percentages: { requestsPerMinute: 50, tokensPerMinute: 80 },
    status: "warning",
    warningThreshold: 75,
  });
  expect(s.resetTime).toBe("2026-11-25T10:01:00.000Z");
});

test("reported limits: used is limit minus remaining until the reset passes", () => {
  const reported = { requests: { limit: 10, remaining: 1, resetAt: now + 10_000 } };
  expect(providerStatus("anthropic", "prv_2", {}, snap({ reported }), now)).toMatchObject({
    source: "provider-headers",
    percentages: { requestsPerMinute: 90 },
    status: "critical",
  });
  expect(providerStatus("anthropic", "prv_2", {}, snap({ reported }), now + 20_000)).toMatchObject({
    percentages: { requestsPerMinute: 0 },
    status: "ok",
  });
  const none = providerStatus("x", "prv_3", {}, snap(), now);
  expect(none).toMatchObject({ source: "none", status: "ok", limits: {} });
  expect(none.warningThreshold).toBeUndefined();
});

test("the report's overall status is the worst", () => {
  const ok = providerStatus("a", "1", { requestsPerDay: 100 }, snap({ requestsToday: 1 }), now);
  const crit = providerStatus("b", "2", { requestsPerDay: 10 }, snap({ requestsToday: 10 }), now);
  // A critical provider is also a warning: hasWarnings alone never misses it.
  expect(rateStatusReport([ok, crit], now)).toMatchObject({ overallStatus: "critical", hasCritical: true, hasWarnings: true });
  expect(rateStatusReport([ok], now)).toMatchObject({ overallStatus: "ok", hasCritical: false, hasWarnings: false });
  expect(rateStatusReport([], now)).toMatchObject({ overallStatus: "ok", providers: [] });
});

test("resetTime is always a time: the deciding window's end, else this minute's", () => {
  const minuteEnd = "2026-11-25T10:01:00.000Z";
  const midnight = "2026-11-26T00:00:00.000Z";
  expect(providerStatus("x", "1", null, snap(), now).resetTime).toBe(minuteEnd);
  expect(providerStatus("x", "1", { requestsPerDay: 100 }, snap({ requestsToday: 10 }), now).resetTime).toBe(midnight);
  // Mixed limits: the most used one's window decides.
  const mixed = { requestsPerDay: 100, requestsPerMinute: 10 };
  expect(providerStatus("x", "1", mixed, snap({ requestsToday: 80, requestsThisMinute: 1 }), now).resetTime).toBe(midnight);
  expect(providerStatus("x", "1", mixed, snap({ requestsToday: 10, requestsThisMinute: 8 }), now).resetTime).toBe(minuteEnd);
  // Reported limits whose reset is unknown or passed: the provider's minute ends with this one.
  const unknown = { requests: { limit: 10, remaining: 5, resetAt: null } };
  expect(providerStatus("x", "1", {}, snap({ reported: unknown }), now).resetTime).toBe(minuteEnd);
  const reported = { requests: { limit: 10, remaining: 5, resetAt: now + 10_000 } };
  expect(providerStatus("x", "1", {}, snap({ reported }), now).resetTime).toBe(new Date(now + 10_000).toISOString());
});

test("a used-up limit says calls are refused, until the latest used-up window ends; critical below it says soon", () => {
  const mixed = { requestsPerDay: 100, requestsPerMinute: 10 };
  const both = providerStatus("x", "1", mixed, snap({ requestsToday: 100, requestsThisMinute: 10 }), now);
  expect(both.message).toBe("x: 100% of requestsPerDay used; calls are refused until 2026-11-26T00:00:00.000Z");
  expect(both.resetTime).toBe("2026-11-26T00:00:00.000Z");
  const minute = providerStatus("x", "1", mixed, snap({ requestsToday: 10, requestsThisMinute: 10 }), now);
  expect(minute.message).toContain("refused until 2026-11-25T10:01:00.000Z");
  const near = providerStatus("x", "1", mixed, snap({ requestsToday: 95 }), now);
  expect(near.message).toBe("x: 95% of requestsPerDay used; calls may be refused soon");
});

test("a reported state is known as of the last answer that reported limits, or of its window's reset once that passed", () => {
  const u = new ProviderRateUsage();
  u.sent("prv_1", new Headers(), now - 5000);
  expect(reportedAsOf(u.snapshot("prv_1", now), now)).toBeNull();
  const headers = new Headers({
    "x-ratelimit-limit-requests": "100",
    "x-ratelimit-remaining-requests": "10",
    "x-ratelimit-reset-requests": "20s",
    "x-ratelimit-limit-tokens": "1000",
    "x-ratelimit-remaining-tokens": "900",
    "x-ratelimit-reset-tokens": "2s",
  });
  u.sent("prv_1", headers, now);
  // An answer without limits (an error page, say) says nothing newer.
  u.sent("prv_1", new Headers(), now + 1000);
  expect(reportedAsOf(u.snapshot("prv_1", now + 1000), now + 1000)).toBe(now);
  // The tokens window refilled at +2 s, the requests one at +20 s.
  expect(reportedAsOf(u.snapshot("prv_1", now + 5000), now + 5000)).toBe(now + 2000);
  expect(reportedAsOf(u.snapshot("prv_1", now + 25_000), now + 25_000)).toBe(now + 20_000);
});
