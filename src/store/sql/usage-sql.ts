/** Usage: the write-behind flush and what reads the events and their roll-ups, over settings (settings-sql.ts). */
import type { FlushBatch, UsageEvent, UsageHourly, UsageSum } from "../../domain/types.ts";
import { hourOf } from "../hourly-rollup.ts";
import { RowsRefused } from "../rows-refused.ts";
import { toUsageSums, type UsageSumOptions, usageSumQuery } from "../usage-sums.ts";
import { toUsageEvent, toUsageHourly } from "./rows.ts";
import { SettingsSql } from "./settings-sql.ts";

export class UsageSql extends SettingsSql {
  /**
   * One write-behind flush: its id, events, hourly and daily roll-ups and key counters, in
   * one transaction, batched as the driver does best. A batch is written whole or not at
   * all and is retried whole under its id, so an id already recorded means the whole batch
   * was stored (a commit whose acknowledgement was lost): it is not added twice, nor refused
   * as a duplicate, and counts as written. Rows at fault reject with RowsRefused, anything
   * else as it failed.
   */
  async writeFlush(batch: FlushBatch): Promise<void> {
    if (batch.events.length === 0 && batch.keyTouches.length === 0) return;
    try {
      await this.db.writeFlush(batch, Date.now());
    } catch (err) {
      throw this.db.refuses(err) ? new RowsRefused(err) : err;
    }
  }

  async countUsageEvents(orgId: string): Promise<number> {
    return Number((await this.one("SELECT COUNT(*) AS n FROM usage_events WHERE org_id = $1", orgId))?.n ?? 0);
  }

  async listUsageEvents(orgId: string): Promise<UsageEvent[]> {
    return (await this.all("SELECT * FROM usage_events WHERE org_id = $1 ORDER BY created_at, id", orgId)).map(toUsageEvent);
  }

  async listUsageHourly(orgId: string, from: number, to: number): Promise<UsageHourly[]> {
    return (
      await this.all(
        "SELECT * FROM usage_hourly WHERE org_id = $1 AND hour >= $2 AND hour < $3 ORDER BY hour, key_id, provider, model",
        orgId,
        from,
        to,
      )
    ).map(toUsageHourly);
  }

  async sumUsage(orgId: string, from: number, to: number, opts: UsageSumOptions): Promise<UsageSum[]> {
    const q = usageSumQuery(orgId, from, to, opts, (n) => `$${n}`);
    return toUsageSums(orgId, await this.all(q.text, ...q.params));
  }

  async sumCostMicros(orgId: string, keyId: string | null, from: number): Promise<number> {
    // From the hourly roll-ups: they outlive raw rows, and a month's sum must survive pruning.
    const hour = hourOf(from);
    const r = keyId
      ? await this.one(
          `SELECT COALESCE(SUM(cost_micros), 0) AS s FROM usage_hourly
            WHERE org_id = $1 AND key_id IN (SELECT id FROM api_keys WHERE id = $2 OR spend_key_id = $2) AND hour >= $3`,
          orgId,
          keyId,
          hour,
        )
      : await this.one("SELECT COALESCE(SUM(cost_micros), 0) AS s FROM usage_hourly WHERE org_id = $1 AND hour >= $2", orgId, hour);
    return Number(r?.s ?? 0);
  }

  /** No index on written_at: the table holds about a day of flushes, read only by this hourly prune. */
  async pruneUsageFlushes(cutoff: number): Promise<number> {
    return this.run("DELETE FROM usage_flushes WHERE written_at < $1", cutoff);
  }

  /** Per organization, so the (org_id, created_at) index finds the rows: no index on time alone is kept up on every write. */
  async pruneUsageEvents(cutoff: number): Promise<number> {
    return this.run("DELETE FROM usage_events WHERE org_id IN (SELECT id FROM organizations) AND created_at < $1", cutoff);
  }
}
