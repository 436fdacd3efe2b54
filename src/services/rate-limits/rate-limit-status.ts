/**
 * The rate-limit status of an organization's providers: per configuration, its
 * configured `limits` against what this gateway sent, else the limits the provider
 * reported (used = limit - remaining). `ok` under 75%, `warning` from 75%, `critical`
 * from 90% of the most used limit. `resetTime` is always a time: the end of the window
 * that decides (the exhausted ones' latest end while calls are refused, else the most
 * used limit's: a daily limit's is the next midnight UTC, as its 429 says), or the end
 * of the current minute when no limit is known.
 */
import type { ProviderLimits } from "../../domain/types.ts";
import type { ProviderRateSnapshot } from "../../state/provider-rate-usage.ts";

export const WARNING_PERCENT = 75;
export const CRITICAL_PERCENT = 90;

type LimitKey = keyof ProviderLimits;
export type RateState = "ok" | "warning" | "critical";

export interface ProviderRateStatus {
  provider: string;
  configId: string;
  source: "configured" | "provider-headers" | "none";
  limits: Partial<Record<LimitKey, number>>;
  usage: Partial<Record<LimitKey, number>>;
  percentages: Partial<Record<LimitKey, number>>;
  status: RateState;
  /** ISO 8601. */
  resetTime: string;
  warningThreshold?: number;
  message: string;
}

export interface RateStatusReport {
  providers: ProviderRateStatus[];
  overallStatus: RateState;
  hasWarnings: boolean;
  hasCritical: boolean;
  checkedAt: string;
}

export const stateOf = (percent: number): RateState =>
  percent >= CRITICAL_PERCENT ? "critical" : percent >= WARNING_PERCENT ? "warning" : "ok";
const pct = (used: number, limit: number) => Math.round((used / limit) * 10_000) / 100;
const MINUTE = 60_000;
const DAY = 86_400_000;

export function providerStatus(
  provider: string,
  configId: string,
  configured: ProviderLimits | null,
  s: ProviderRateSnapshot,
  now: number,
): ProviderRateStatus {
  const limits: ProviderRateStatus["limits"] = {};
  const usage: ProviderRateStatus["usage"] = {};
  let source: ProviderRateStatus["source"] = "none";
  // Fixed UTC windows, as the configured limits are counted (state/provider-limits.ts) and their 429 names.
  const minuteEnd = Math.floor(now / MINUTE) * MINUTE + MINUTE;
  const windowEnd: Partial<Record<LimitKey, number>> = {};
  const has = configured && Object.values(configured).some((v) => typeof v === "number" && v > 0);
  if (has) {
    source = "configured";
    if (configured.requestsPerMinute)
      (limits.requestsPerMinute = configured.requestsPerMinute), (usage.requestsPerMinute = s.requestsThisMinute);
    if (configured.tokensPerMinute) (limits.tokensPerMinute = configured.tokensPerMinute), (usage.tokensPerMinute = s.tokensThisMinute);
    if (configured.requestsPerDay) (limits.requestsPerDay = configured.requestsPerDay), (usage.requestsPerDay = s.requestsToday);
    windowEnd.requestsPerMinute = windowEnd.tokensPerMinute = minuteEnd;
    windowEnd.requestsPerDay = Math.floor(now / DAY) * DAY + DAY;
  } else if (s.reported.requests || s.reported.tokens) {
    source = "provider-headers";
    // Providers report per-minute windows in these headers; a reset already passed means the window refilled.
    for (const [key, r] of [
      ["requestsPerMinute", s.reported.requests],
      ["tokensPerMinute", s.reported.tokens],
    ] as const) {
      if (!r) continue;
      const refilled = r.resetAt !== null && r.resetAt <= now;
      limits[key] = r.limit;
      usage[key] = refilled ? 0 : r.limit - r.remaining;
      // Without a reset time (or once it passed) the provider's per-minute window ends with this minute.
      windowEnd[key] = !refilled && r.resetAt !== null ? r.resetAt : minuteEnd;
    }
  }
  const percentages: ProviderRateStatus["percentages"] = {};
  let top = 0;
  let topKey: LimitKey | null = null;
  // While a limit is used up, calls are refused until every used-up window has refilled.
  let refusedUntil: number | null = null;
  for (const key of Object.keys(limits) as LimitKey[]) {
    const p = pct(usage[key]!, limits[key]!);
    percentages[key] = p;
    if (p >= top) (top = p), (topKey = key);
    if (p >= 100) refusedUntil = Math.max(refusedUntil ?? 0, windowEnd[key] ?? minuteEnd);
  }
  const reset = refusedUntil ?? (topKey === null ? minuteEnd : (windowEnd[topKey] ?? minuteEnd));
  const resetTime = new Date(reset).toISOString();
  const status = stateOf(top);
  const message =
    source === "none"
      ? `${provider}: no limits configured and none reported by the provider yet`
      : status === "ok"
        ? `${provider}: within limits (${top}% of ${topKey})`
        : refusedUntil !== null
          ? `${provider}: ${top}% of ${topKey} used; calls are refused until ${resetTime}`
          : `${provider}: ${top}% of ${topKey} used${status === "critical" ? "; calls may be refused soon" : ""}`;
  return {
    provider,
    configId,
    source,
    limits,
    usage,
    percentages,
    status,
    resetTime,
    ...(status !== "ok" && { warningThreshold: WARNING_PERCENT }),
    message,
  };
}

/**
 * What a provider-reported state is known as of: the last answer that reported limits,
 * or a reported window's reset once it passed (the window refilled then, as far as
 * anyone knows). Null when nothing was reported. Several nodes compare these to tell a
 * newer view of the provider's limits from an older one (the alert check).
 */
export function reportedAsOf(s: ProviderRateSnapshot, now: number): number | null {
  if (!s.reported.requests && !s.reported.tokens) return null;
  let at = s.reportedAt ?? 0;
  for (const r of [s.reported.requests, s.reported.tokens]) if (r?.resetAt != null && r.resetAt <= now) at = Math.max(at, r.resetAt);
  return at;
}

export function rateStatusReport(providers: ProviderRateStatus[], now: number): RateStatusReport {
  const hasCritical = providers.some((p) => p.status === "critical");
  // Critical is a warning too: a caller checking hasWarnings alone must not miss it.
  const hasWarnings = providers.some((p) => p.status !== "ok");
  return {
    providers,
    overallStatus: hasCritical ? "critical" : hasWarnings ? "warning" : "ok",
    hasWarnings,
    hasCritical,
    checkedAt: new Date(now).toISOString(),
  };
}
