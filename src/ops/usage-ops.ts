/**
 * `usage.daily`: the organization's calls, errors and cost per UTC day, from the
 * hourly roll-ups (never the per-call rows), for the dashboard's charts. Any member may
 * read it: it shows totals, not who called what.
 */
import { Type } from "@sinclair/typebox";
import { defineOperation } from "./registry.ts";
import type { DailyUsage } from "./usage-shapes.ts";

const DAY_MS = 86_400_000;

export const usageDaily = defineOperation({
  id: "usage.daily",
  access: "read",
  summary: "Calls, errors and cost per UTC day for the last `days` days (default 30), per provider too.",
  params: Type.Object({
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366 })),
    provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }),
  async run({ identity, deps }, p) {
    const days = p.days ?? 30;
    const today = Math.floor(deps.now() / DAY_MS) * DAY_MS;
    const from = today - (days - 1) * DAY_MS;
    const rows = await deps.store.listUsageHourly(identity.organization.id, from, today + DAY_MS);
    const series: DailyUsage[] = Array.from({ length: days }, (_, i) => ({
      date: new Date(from + i * DAY_MS).toISOString().slice(0, 10),
      requests: 0,
      errors: 0,
      costMicros: 0,
      byProvider: {},
    }));
    for (const r of rows) {
      if (p.provider && r.provider !== p.provider) continue;
      const day = series[Math.floor((r.hour - from) / DAY_MS)];
      if (!day) continue;
      day.requests += r.requests;
      day.errors += r.errors;
      day.costMicros += r.costMicros;
      const per = (day.byProvider[r.provider] ??= { requests: 0, costMicros: 0 });
      per.requests += r.requests;
      per.costMicros += r.costMicros;
    }
    return { days: series };
  },
});

export const usageOperations = [usageDaily];
