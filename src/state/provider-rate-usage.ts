/**
 * What this gateway knows of each provider configuration's rate limits, in memory:
 * the requests and tokens it sent in the current minute and UTC day, and the limits
 * and remaining counts the provider last reported in its response headers
 * (`x-ratelimit-*` for OpenAI-style providers, `anthropic-ratelimit-*`). Read by the
 * rate-limit status and the alert check; a restart starts the counts afresh.
 */

export interface ReportedLimit {
  limit: number;
  remaining: number;
  /** Epoch ms when the provider says the window resets; null when it did not say. */
  resetAt: number | null;
}

export interface ProviderRateSnapshot {
  minuteStart: number;
  requestsThisMinute: number;
  tokensThisMinute: number;
  dayStart: number;
  requestsToday: number;
  reported: { requests?: ReportedLimit; tokens?: ReportedLimit };
  /** When an answer last reported limits (epoch ms): what the reported state is known as of. */
  reportedAt?: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** `1s`, `6m0s`, `20ms`, `0.5s` (OpenAI's durations), or an ISO 8601 instant (Anthropic's). */
export function parseReset(raw: string | null, now: number): number | null {
  if (!raw) return null;
  const v = raw.trim();
  if (/^\d{4}-\d\d-\d\dT/.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  let ms = 0;
  let matched = false;
  for (const m of v.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    matched = true;
    const n = Number(m[1]);
    ms += m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : m[2] === "m" ? n * MINUTE : n * 3_600_000;
  }
  if (!matched && /^\d+(\.\d+)?$/.test(v)) return now + Number(v) * 1000;
  return matched ? now + Math.round(ms) : null;
}

function reported(h: Headers, names: [string, string, string], now: number): ReportedLimit | undefined {
  // Read once each, and the usual answer (no such header) settled by the first read: this runs on every response.
  const limitText = h.get(names[0]);
  if (limitText === null) return undefined;
  const remainingText = h.get(names[1]);
  if (remainingText === null) return undefined;
  const limit = Number(limitText);
  const remaining = Number(remainingText);
  if (!Number.isFinite(limit) || !Number.isFinite(remaining) || limit <= 0) return undefined;
  return { limit, remaining: Math.max(0, remaining), resetAt: parseReset(h.get(names[2]), now) };
}

// The header families, named once: the lists are read on every provider answer.
const OPENAI_REQUESTS: [string, string, string] = [
  "x-ratelimit-limit-requests",
  "x-ratelimit-remaining-requests",
  "x-ratelimit-reset-requests",
];
const ANTHROPIC_REQUESTS: [string, string, string] = [
  "anthropic-ratelimit-requests-limit",
  "anthropic-ratelimit-requests-remaining",
  "anthropic-ratelimit-requests-reset",
];
const OPENAI_TOKENS: [string, string, string] = ["x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens"];
const ANTHROPIC_TOKENS: [string, string, string] = [
  "anthropic-ratelimit-tokens-limit",
  "anthropic-ratelimit-tokens-remaining",
  "anthropic-ratelimit-tokens-reset",
];

/** The limits a provider reported in one response's headers, if any. */
export function reportedLimits(h: Headers, now: number): ProviderRateSnapshot["reported"] {
  const requests = reported(h, OPENAI_REQUESTS, now) ?? reported(h, ANTHROPIC_REQUESTS, now);
  const tokens = reported(h, OPENAI_TOKENS, now) ?? reported(h, ANTHROPIC_TOKENS, now);
  const out: ProviderRateSnapshot["reported"] = {};
  if (requests) out.requests = requests;
  if (tokens) out.tokens = tokens;
  return out;
}

export class ProviderRateUsage {
  private readonly byConfig = new Map<string, ProviderRateSnapshot>();

  private entry(configId: string, now: number): ProviderRateSnapshot {
    let e = this.byConfig.get(configId);
    const minuteStart = Math.floor(now / MINUTE) * MINUTE;
    const dayStart = Math.floor(now / DAY) * DAY;
    if (!e) {
      e = { minuteStart, requestsThisMinute: 0, tokensThisMinute: 0, dayStart, requestsToday: 0, reported: {} };
      this.byConfig.set(configId, e);
    }
    if (e.minuteStart !== minuteStart) Object.assign(e, { minuteStart, requestsThisMinute: 0, tokensThisMinute: 0 });
    if (e.dayStart !== dayStart) Object.assign(e, { dayStart, requestsToday: 0 });
    return e;
  }

  /** One request sent, and what the provider's answer headers said of its limits. */
  sent(configId: string, headers: Headers, now: number): void {
    const e = this.entry(configId, now);
    e.requestsThisMinute++;
    e.requestsToday++;
    const r = reportedLimits(headers, now);
    if (r.requests) e.reported.requests = r.requests;
    if (r.tokens) e.reported.tokens = r.tokens;
    if (r.requests || r.tokens) e.reportedAt = now;
  }

  tokens(configId: string, n: number, now: number): void {
    if (n > 0) this.entry(configId, now).tokensThisMinute += n;
  }

  /** The counts as of `now` (a stale minute or day reads as zero). */
  snapshot(configId: string, now: number): ProviderRateSnapshot {
    return { ...this.entry(configId, now) };
  }
}
