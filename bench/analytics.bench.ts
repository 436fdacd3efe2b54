/**
 * Analytics over 90 days for an organization with 100 keys and 10 providers: each key
 * calls one of the providers every hour (216,000 hourly roll-up rows), then each
 * analytics view and metrics.cost are answered from the store's sums.
 *
 *   bun bench/analytics.bench.ts [--quick]
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../src/domain/ids.ts";
import { type AnalyticsView, orgAnalytics } from "../src/services/analytics/org-analytics.ts";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.ts";

export interface AnalyticsBenchResult {
  rows: number;
  /** Milliseconds per answer (median of the rounds), by view. */
  millis: Record<string, number>;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

export async function runAnalyticsBench(quick = false): Promise<AnalyticsBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "gw-analytics-bench-"));
  const days = 90;
  const keys = quick ? 10 : 100;
  const providers = 10;
  try {
    const path = join(dir, "gateway.db");
    const store = new SqliteStore(path);
    await store.migrate();
    const orgId = newId("org");
    await store.createOrganization({ id: orgId, name: "Bench", tier: "enterprise", createdAt: 0 });
    const now = Date.now();
    const from = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
    // Seeded straight into the roll-up table: the bench measures reading, not the write path.
    const db = new Database(path);
    const insert = db.prepare(
      "INSERT INTO usage_hourly (org_id, hour, key_id, provider, model, requests, errors, prompt_tokens, completion_tokens, cost_micros, latency_ms_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    let rows = 0;
    db.transaction(() => {
      for (let h = from; h < now; h += HOUR) {
        for (let k = 0; k < keys; k++) {
          const p = (k + Math.floor(h / HOUR)) % providers;
          insert.run(
            orgId,
            h,
            `key_${k}`,
            `provider-${p}`,
            `model-${p}`,
            10,
            k % 50 === 0 ? 1 : 0,
            5000,
            1000,
            2000 + ((k * 7919 + h / HOUR) % 1000),
            4000,
          );
          rows++;
        }
      }
    })();
    // The daily roll-up that every flush keeps beside the hourly one, built here the way the migration backfills it.
    db.run(
      "INSERT INTO usage_daily SELECT org_id, (hour / 86400000) * 86400000, provider, model, '', SUM(requests), SUM(errors), SUM(prompt_tokens), SUM(completion_tokens), SUM(cost_micros), SUM(latency_ms_sum) FROM usage_hourly GROUP BY 1, 2, 3, 4",
    );
    db.close();
    const views: [string, () => Promise<unknown>][] = (["forecast", "anomalies", "trends", "budget", "providers"] as AnalyticsView[]).map(
      (v) => [v, () => orgAnalytics(store, orgId, v, { period: "90d", timeframe: "90d" }, now)],
    );
    views.push(["metrics.cost by key", () => store.sumUsage(orgId, from, now + DAY, { by: ["key"], provider: null })]);
    const millis: Record<string, number> = {};
    for (const [name, run] of views) {
      await run();
      const times: number[] = [];
      for (let i = 0; i < (quick ? 3 : 9); i++) {
        const t = performance.now();
        await run();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      millis[name] = Math.round(times[times.length >> 1]! * 100) / 100;
    }
    await store.close();
    return { rows, millis };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await runAnalyticsBench(process.argv.includes("--quick")));
