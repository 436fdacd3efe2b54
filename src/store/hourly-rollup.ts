/**
 * A flush's usage events summed per hourly roll-up row (organization, hour, key,
 * provider, model), so a store writes one upsert per row touched rather than one
 * per event. Shared by every store implementation.
 */
import type { UsageEvent, UsageHourly } from "../domain/types.ts";

/** The start of the UTC hour an instant falls in: the roll-up bucket. */
export const hourOf = (ms: number): number => Math.floor(ms / 3_600_000) * 3_600_000;

/** A flush's contribution to one roll-up row: the row's own shape, holding the sums of this batch only. */
export type HourlyDelta = UsageHourly;

export const DAY_MS = 86_400_000;

/** A flush's contribution to one daily roll-up row (UTC day, provider, model, application; keys dropped). */
export type DailyDelta = HourlyDelta & { applicationId: string };

/**
 * Sums events into rows: `idOf` names an event's row, `rowOf` makes it (with zero sums)
 * the first time. An event of the previous event's row (`same`: a flush is mostly runs
 * of one caller's calls) is summed into it without building its name; any other builds
 * the name and finds its row, so no object or closure is made per event either way.
 */
function rollUp<R extends HourlyDelta>(
  events: readonly UsageEvent[],
  idOf: (e: UsageEvent) => string,
  rowOf: (e: UsageEvent) => R,
  same: (row: R, e: UsageEvent) => boolean,
): R[] {
  const rows = new Map<string, R>();
  let last: R | undefined;
  for (const e of events) {
    let row = last !== undefined && same(last, e) ? last : undefined;
    if (row === undefined) {
      const id = idOf(e);
      row = rows.get(id);
      if (!row) {
        row = rowOf(e);
        rows.set(id, row);
      }
      last = row;
    }
    row.requests++;
    if (e.status >= 400) row.errors++;
    row.promptTokens += e.promptTokens;
    row.completionTokens += e.completionTokens;
    row.costMicros += e.costMicros;
    row.latencyMsSum += e.latencyMs;
    row.cacheReadTokens += e.cacheReadTokens ?? 0;
    row.cacheWriteTokens += e.cacheWriteTokens ?? 0;
  }
  return [...rows.values()];
}

const ZERO_SUMS = {
  requests: 0,
  errors: 0,
  promptTokens: 0,
  completionTokens: 0,
  costMicros: 0,
  latencyMsSum: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export function rollUpDaily(events: readonly UsageEvent[]): DailyDelta[] {
  return rollUp(
    events,
    (e) => `${e.orgId}\u0000${dayOf(e.createdAt)}\u0000${e.provider}\u0000${e.model}\u0000${e.applicationId ?? ""}`,
    (e) => ({
      orgId: e.orgId,
      hour: dayOf(e.createdAt),
      keyId: "",
      provider: e.provider,
      model: e.model,
      applicationId: e.applicationId ?? "",
      ...ZERO_SUMS,
    }),
    (r, e) =>
      r.orgId === e.orgId &&
      r.hour === dayOf(e.createdAt) &&
      r.provider === e.provider &&
      r.model === e.model &&
      r.applicationId === (e.applicationId ?? ""),
  );
}

export function rollUpHourly(events: readonly UsageEvent[]): HourlyDelta[] {
  return rollUp(
    events,
    (e) => `${e.orgId}\u0000${hourOf(e.createdAt)}\u0000${e.keyId ?? ""}\u0000${e.provider}\u0000${e.model}`,
    (e) => ({ orgId: e.orgId, hour: hourOf(e.createdAt), keyId: e.keyId ?? "", provider: e.provider, model: e.model, ...ZERO_SUMS }),
    (r, e) =>
      r.orgId === e.orgId &&
      r.hour === hourOf(e.createdAt) &&
      r.keyId === (e.keyId ?? "") &&
      r.provider === e.provider &&
      r.model === e.model,
  );
}
