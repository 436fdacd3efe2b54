/** Roll-up rows summed by one dimension, with cents apportioned so the groups add up to the total. */
import type { UsageSum } from "../../domain/types.ts";
import { apportionCents, toCents } from "./money.ts";
import { DAY_MS } from "./window.ts";

export type GroupBy = "provider" | "model" | "key" | "day" | "application";

export interface CostGroup {
  key: string;
  costMicros: number;
  costCents: number;
  calls: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  latencyMsSum: number;
  /** Of `promptTokens`, those read from and written to the providers' prompt caches. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

function keyOf(r: UsageSum, by: GroupBy): string {
  switch (by) {
    case "provider":
      return r.provider;
    case "model":
      return r.model;
    case "key":
      return r.keyId;
    case "application":
      return r.applicationId;
    case "day":
      return new Date(Math.floor(r.hour / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  }
}

export function groupCosts(rows: readonly UsageSum[], by: GroupBy): { totalMicros: number; totalCents: number; groups: CostGroup[] } {
  const map = new Map<string, CostGroup>();
  let totalMicros = 0;
  for (const r of rows) {
    const k = keyOf(r, by);
    let g = map.get(k);
    if (!g)
      map.set(
        k,
        (g = {
          key: k,
          costMicros: 0,
          costCents: 0,
          calls: 0,
          errors: 0,
          promptTokens: 0,
          completionTokens: 0,
          latencyMsSum: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        }),
      );
    g.costMicros += r.costMicros;
    g.calls += r.requests;
    g.errors += r.errors;
    g.promptTokens += r.promptTokens;
    g.completionTokens += r.completionTokens;
    g.latencyMsSum += r.latencyMsSum;
    g.cacheReadTokens += r.cacheReadTokens;
    g.cacheWriteTokens += r.cacheWriteTokens;
    totalMicros += r.costMicros;
  }
  const groups =
    by === "day"
      ? [...map.values()].sort((a, b) => a.key.localeCompare(b.key))
      : [...map.values()].sort((a, b) => b.costMicros - a.costMicros || a.key.localeCompare(b.key));
  const cents = apportionCents(groups.map((g) => g.costMicros));
  groups.forEach((g, i) => (g.costCents = cents[i]!));
  return { totalMicros, totalCents: toCents(totalMicros), groups };
}
