/**
 * A provider configuration's own limits (requests and tokens per minute, requests per
 * day), counted by this gateway so that a call over them is refused here, with the
 * time the window resets, before it spends the provider's quota, and so that the
 * router skips a configuration at its limit. Windows are fixed (the UTC minute, the
 * UTC day) so every refusal can name an exact reset time. Tokens are counted at the
 * call's estimate when it starts and corrected to the provider's count when it ends.
 */
import type { ProviderLimits } from "../domain/types.ts";

export type LimitName = keyof ProviderLimits;

export interface LimitUsage {
  requestsPerMinute: number;
  tokensPerMinute: number;
  requestsPerDay: number;
}

export type LimitDecision =
  | { ok: true; settle(actualTokens: number): void }
  | { ok: false; limit: LimitName; max: number; resetAtMs: number };

interface Counter {
  minute: number;
  minuteRequests: number;
  minuteTokens: number;
  day: number;
  dayRequests: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export class ProviderLimitCounter {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts a call against the configuration's limits, or says which limit it would pass and when that resets. */
  take(providerId: string, limits: ProviderLimits, estimatedTokens: number): LimitDecision {
    const c = this.current(providerId);
    if (limits.requestsPerDay !== undefined && c.dayRequests + 1 > limits.requestsPerDay) {
      return { ok: false, limit: "requestsPerDay", max: limits.requestsPerDay, resetAtMs: (c.day + 1) * DAY_MS };
    }
    if (limits.requestsPerMinute !== undefined && c.minuteRequests + 1 > limits.requestsPerMinute) {
      return { ok: false, limit: "requestsPerMinute", max: limits.requestsPerMinute, resetAtMs: (c.minute + 1) * MINUTE_MS };
    }
    // A call bigger than the whole token limit could never pass: it is let through alone in a fresh minute.
    if (limits.tokensPerMinute !== undefined && c.minuteTokens > 0 && c.minuteTokens + estimatedTokens > limits.tokensPerMinute) {
      return { ok: false, limit: "tokensPerMinute", max: limits.tokensPerMinute, resetAtMs: (c.minute + 1) * MINUTE_MS };
    }
    c.minuteRequests++;
    c.dayRequests++;
    c.minuteTokens += estimatedTokens;
    const minute = c.minute;
    let settled = false;
    return {
      ok: true,
      settle: (actualTokens: number) => {
        if (settled) return;
        settled = true;
        // A call that ended in a later minute is counted there by the provider too; only its own minute is corrected.
        const now = this.current(providerId);
        if (now.minute === minute) now.minuteTokens = Math.max(0, now.minuteTokens + actualTokens - estimatedTokens);
      },
    };
  }

  /** Whether the next call would be refused (the router skips such a configuration). */
  atLimit(providerId: string, limits: ProviderLimits): boolean {
    const c = this.current(providerId);
    return (
      (limits.requestsPerDay !== undefined && c.dayRequests >= limits.requestsPerDay) ||
      (limits.requestsPerMinute !== undefined && c.minuteRequests >= limits.requestsPerMinute) ||
      (limits.tokensPerMinute !== undefined && c.minuteTokens >= limits.tokensPerMinute)
    );
  }

  /** What was counted in the current windows. */
  usage(providerId: string): LimitUsage {
    const c = this.current(providerId);
    return { requestsPerMinute: c.minuteRequests, tokensPerMinute: c.minuteTokens, requestsPerDay: c.dayRequests };
  }

  /** When each window resets (epoch ms). */
  resets(): { minute: number; day: number } {
    const now = this.now();
    return { minute: (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS, day: (Math.floor(now / DAY_MS) + 1) * DAY_MS };
  }

  forget(providerId: string): void {
    this.counters.delete(providerId);
  }

  /** The configuration's counter, its windows moved on to now. */
  private current(providerId: string): Counter {
    const now = this.now();
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor(now / DAY_MS);
    let c = this.counters.get(providerId);
    if (!c) {
      c = { minute, minuteRequests: 0, minuteTokens: 0, day, dayRequests: 0 };
      this.counters.set(providerId, c);
    }
    if (c.minute !== minute) {
      c.minute = minute;
      c.minuteRequests = 0;
      c.minuteTokens = 0;
    }
    if (c.day !== day) {
      c.day = day;
      c.dayRequests = 0;
    }
    return c;
  }
}
