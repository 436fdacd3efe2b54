/**
 * `usage.daily`: the organization's calls, errors, cost and prompt tokens (those the
 * providers' prompt caches served and stored apart) per UTC day, summed by the
 * store per day and provider (never the per-call rows, nor the hourly rows of every key
 * and model: a year of those is millions), for the dashboard's charts. Any member may
 * read it: it shows totals, not who called what.
 */
import { Type } from "@sinclair/typebox";
import { defineOperation } from "./registry.ts";
import type { DailyUsage, ProviderDay } from "./usage-shapes.ts";

const DAY_MS = 86_400_000;
const noCalls = (): ProviderDay => ({ requests: 0, costMicros: 0, promptTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

export const usageDaily = defineOperation({
  id: "usage.daily",
  access: "read",
  summary:
    "Calls, errors, cost and prompt tokens (cacheReadTokens, cacheWriteTokens: those the prompt cache served and stored) per UTC day for the last `days` days (default 30), per provider too.",
  params: Type.Object({
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366 })),
    provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }),
  async run({ identity, deps }, p) {
    const days = p.days ?? 30;
    const today = Math.floor(deps.now() / DAY_MS) * DAY_MS;
    const from = today - (days - 1) * DAY_MS;
    // At most days x providers rows, however many keys and models called.
    const rows = await deps.store.sumUsage(identity.organization.id, from, today + DAY_MS, {
      by: ["day", "provider"],
      provider: p.provider ?? null,
    });
    const series: DailyUsage[] = Array.from({ length: days }, (_, i) => ({
      date: new Date(from + i * DAY_MS).toISOString().slice(0, 10),
      ...noCalls(),
      errors: 0,
      byProvider: {},
    }));
    for (const r of rows) {
      const day = series[Math.floor((r.hour - from) / DAY_MS)];
      if (!day) continue;
      day.errors += r.errors;
      // The day's sums, and its provider's alike.
      for (const sums of [day, (day.byProvider[r.provider] ??= noCalls())]) {
        sums.requests += r.requests;
        sums.costMicros += r.costMicros;
        sums.promptTokens += r.promptTokens;
        sums.cacheReadTokens += r.cacheReadTokens;
        sums.cacheWriteTokens += r.cacheWriteTokens;
      }
    }
    return { days: series };
  },
});

export const usageOperations = [usageDaily];
