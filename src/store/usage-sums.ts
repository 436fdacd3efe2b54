/**
 * `Store.sumUsage` as one statement both stores run, each with its own placeholders:
 * whole UTC days without the key dimension read the daily roll-up (far fewer rows),
 * anything else the hourly one. Column expressions come from a fixed table, never
 * from input.
 */
import type { UsageDimension, UsageSum } from "../domain/types.ts";
import { DAY_MS } from "./hourly-rollup.ts";
import { SUMS } from "./rollup-upserts.ts";

type Row = Record<string, unknown>;

/** Each roll-up sum added up over the window, under its own name. */
const SUM_SELECT = SUMS.map((c) => `SUM(${c}) AS ${c}`).join(", ");

const DIMENSIONS: Record<UsageDimension, { expr: string; as: string }> = {
  day: { expr: "(hour / 86400000) * 86400000", as: "day" },
  provider: { expr: "provider", as: "provider" },
  model: { expr: "model", as: "model" },
  key: { expr: "key_id", as: "key_id" },
  application: { expr: "application_id", as: "application_id" },
};

export interface UsageSumOptions {
  by: UsageDimension[];
  provider: string | null;
  application?: string | null;
  /**
   * Only this many groups, the most costly first (ties in the dimensions' order): models
   * and applications are named by callers, so their groups are as many as callers made.
   */
  top?: number;
}

/** The statement and its parameters; `placeholder(n)` writes the n-th (1-based) parameter as the dialect does. */
export function usageSumQuery(
  orgId: string,
  from: number,
  to: number,
  opts: UsageSumOptions,
  placeholder: (n: number) => string,
): { text: string; params: unknown[] } {
  const daily = !opts.by.includes("key") && from % DAY_MS === 0 && to % DAY_MS === 0;
  const byApplication = opts.by.includes("application") || (opts.application ?? null) !== null;
  // Only the daily roll-up knows applications.
  if (byApplication && !daily) throw new Error("usage by application needs whole UTC days and no key dimension");
  const dims = [...new Set(opts.by)].map((d) => (daily && d === "day" ? { expr: "day", as: "day" } : DIMENSIONS[d]));
  const select = dims.map((d) => `${d.expr} AS ${d.as}`).join(", ");
  const params: unknown[] = [orgId, from, to];
  const time = daily ? "day" : "hour";
  let where = `org_id = ${placeholder(1)} AND ${time} >= ${placeholder(2)} AND ${time} < ${placeholder(3)}`;
  if (opts.provider !== null) where += ` AND provider = ${placeholder(params.push(opts.provider))}`;
  if (opts.application != null) where += ` AND application_id = ${placeholder(params.push(opts.application))}`;
  const group = dims.length ? ` GROUP BY ${dims.map((d) => d.as).join(", ")}` : "";
  const top =
    opts.top === undefined
      ? ""
      : ` ORDER BY cost_micros DESC${dims.map((d) => `, ${d.as}`).join("")} LIMIT ${placeholder(params.push(opts.top))}`;
  return {
    text: `SELECT ${select ? `${select}, ` : ""}${SUM_SELECT} FROM ${daily ? "usage_daily" : "usage_hourly"} WHERE ${where}${group}${top}`,
    params,
  };
}

/** The rows as sums (a dimension not asked for is empty; no rows at all sum to nothing). */
export function toUsageSums(orgId: string, rows: Row[]): UsageSum[] {
  return rows
    .filter((r) => r.requests !== null)
    .map((r) => ({
      orgId,
      hour: r.day === undefined ? 0 : Number(r.day),
      keyId: r.key_id === undefined ? "" : String(r.key_id),
      provider: r.provider === undefined ? "" : String(r.provider),
      model: r.model === undefined ? "" : String(r.model),
      applicationId: r.application_id === undefined ? "" : String(r.application_id),
      requests: Number(r.requests),
      errors: Number(r.errors),
      promptTokens: Number(r.prompt_tokens),
      completionTokens: Number(r.completion_tokens),
      costMicros: Number(r.cost_micros),
      latencyMsSum: Number(r.latency_ms_sum),
      cacheReadTokens: Number(r.cache_read_tokens),
      cacheWriteTokens: Number(r.cache_write_tokens),
    }));
}
