/**
 * The roll-up upserts both stores run, written once: each table's columns, the key a row
 * is found by, and the row's values in column order. A store supplies only its own
 * VALUES list (SQLite one row of `?`, Postgres many rows of `$n`).
 */
import type { DailyDelta, HourlyDelta } from "./hourly-rollup.ts";

/** The summed columns both roll-ups keep (usage-sums.ts adds them up again for a window). */
export const SUMS = [
  "requests",
  "errors",
  "prompt_tokens",
  "completion_tokens",
  "cost_micros",
  "latency_ms_sum",
  "cache_read_tokens",
  "cache_write_tokens",
];

export interface RollupTable<R> {
  columns: string[];
  values(row: R): unknown[];
  /** The statement for `valuesList` (the VALUES rows, in `columns` order): sums add on conflict. */
  upsert(valuesList: string): string;
}

function table<R>(name: string, keys: string[], values: (row: R) => unknown[]): RollupTable<R> {
  const columns = [...keys, ...SUMS];
  const add = SUMS.map((c) => `${c} = ${name}.${c} + excluded.${c}`).join(", ");
  return {
    columns,
    values,
    upsert: (valuesList) =>
      `INSERT INTO ${name} (${columns.join(", ")}) VALUES ${valuesList} ON CONFLICT (${keys.join(", ")}) DO UPDATE SET ${add}`,
  };
}

const sums = (r: HourlyDelta) => [
  r.requests,
  r.errors,
  r.promptTokens,
  r.completionTokens,
  r.costMicros,
  r.latencyMsSum,
  r.cacheReadTokens,
  r.cacheWriteTokens,
];

export const HOURLY_ROLLUP = table<HourlyDelta>("usage_hourly", ["org_id", "hour", "key_id", "provider", "model"], (h) => [
  h.orgId,
  h.hour,
  h.keyId,
  h.provider,
  h.model,
  ...sums(h),
]);

export const DAILY_ROLLUP = table<DailyDelta>("usage_daily", ["org_id", "day", "provider", "model", "application_id"], (d) => [
  d.orgId,
  d.hour,
  d.provider,
  d.model,
  d.applicationId,
  ...sums(d),
]);
