/**
 * The usage_cache_tokens migration over a database that already holds usage: the rows
 * and roll-ups written before it read as no cache tokens, and a flush after it adds its
 * cache tokens to the same hourly and daily rows those calls summed into, on SQLite and
 * on Postgres.
 */
import { expect, test } from "bun:test";
import type { Store } from "../../../src/store/store.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { usageEvent } from "../../support/records.ts";
import { postgresBefore, sqliteBefore } from "./before-migration.ts";

const DAY = Date.UTC(2026, 0, 10);
const HOUR = DAY + 3 * 3_600_000;

/** One call as the schema before cache columns held it: its raw row and both roll-ups. */
const SEED = `
INSERT INTO organizations (id, name, tier, created_at) VALUES ('org_a', 'A', 'enterprise', 1);
INSERT INTO usage_events (id, request_id, org_id, key_id, user_id, provider, model, prompt_tokens, completion_tokens, cost_micros, latency_ms, status, error_code, created_at, price_estimated, application_id, attempts)
  VALUES ('evt_old', 'req_old', 'org_a', NULL, NULL, 'anthropic', 'claude-haiku-4-5', 1000, 10, 1050, 30, 200, NULL, ${HOUR + 5}, 0, NULL, 1);
INSERT INTO usage_hourly (org_id, hour, key_id, provider, model, requests, errors, prompt_tokens, completion_tokens, cost_micros, latency_ms_sum)
  VALUES ('org_a', ${HOUR}, '', 'anthropic', 'claude-haiku-4-5', 1, 0, 1000, 10, 1050, 30);
INSERT INTO usage_daily (org_id, day, provider, model, application_id, requests, errors, prompt_tokens, completion_tokens, cost_micros, latency_ms_sum)
  VALUES ('org_a', ${DAY}, 'anthropic', 'claude-haiku-4-5', '', 1, 0, 1000, 10, 1050, 30);
`;

async function expectCacheColumnsAdded(store: Store) {
  await store.migrate();
  expect(await store.listUsageEvents("org_a")).toMatchObject([
    { id: "evt_old", promptTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 },
  ]);
  expect(await store.listUsageHourly("org_a", HOUR, HOUR + 3_600_000)).toMatchObject([
    { requests: 1, promptTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 },
  ]);
  // The next call of the same hour, key, provider and model sums into the existing rows.
  await store.writeFlush({
    id: crypto.randomUUID(),
    events: [
      usageEvent("org_a", null, {
        provider: "anthropic",
        model: "claude-haiku-4-5",
        createdAt: HOUR + 60_000,
        promptTokens: 3000,
        cacheReadTokens: 2000,
        cacheWriteTokens: 900,
      }),
    ],
    keyTouches: [],
  });
  expect(await store.listUsageHourly("org_a", HOUR, HOUR + 3_600_000)).toMatchObject([
    { requests: 2, promptTokens: 4000, cacheReadTokens: 2000, cacheWriteTokens: 900 },
  ]);
  // Whole days read the daily roll-up: the call before the migration counts as uncached.
  expect(await store.sumUsage("org_a", DAY, DAY + 86_400_000, { by: ["day"], provider: null })).toMatchObject([
    { hour: DAY, requests: 2, promptTokens: 4000, cacheReadTokens: 2000, cacheWriteTokens: 900 },
  ]);
  await store.close();
}

const pg = postgresPerFile();

test("SQLite: earlier usage reads as uncached; later calls add their cache tokens to the same roll-up rows", async () => {
  await expectCacheColumnsAdded(sqliteBefore("usage_cache_tokens", SEED));
});

test("Postgres: earlier usage reads as uncached; later calls add their cache tokens to the same roll-up rows", async () => {
  await expectCacheColumnsAdded(await postgresBefore(await pg.createDatabase(), "usage_cache_tokens", SEED));
});
