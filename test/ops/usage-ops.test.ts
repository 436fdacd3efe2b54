/**
 * `usage.daily` over the operations endpoint. Any caller of the organization may read it
 * (a sandbox key too), for up to 366 days. The probe that found the hole: it read every
 * hourly roll-up row of the window into memory, one per hour, key, provider and model,
 * which for a year of an organization with many keys and models is millions of rows per
 * call. The store now sums them per day and provider, so what the operation holds is
 * bounded by days x providers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { UsageEvent } from "../../src/domain/types.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { usageEvent } from "../support/records.ts";
import { countUsageRowsRead } from "../support/usage-rows.ts";

const DAY_MS = 86_400_000;
let gw: InProcessGateway;
/** Rows the store handed back to the operation, counted under the real store. */
let read: { rows: number };

beforeAll(async () => {
  gw = await startInProcessGateway();
  read = countUsageRowsRead(gw.rt.store);
});

afterAll(() => gw.stop());

const event = (over: Partial<UsageEvent>): UsageEvent =>
  usageEvent(gw.init.organization.id, gw.init.apiKey.id, { createdAt: gw.clock.now, ...over });

test("a year of many models and hours is read as one row per day and provider, with the same totals, prompt-cache tokens too", async () => {
  const today = Math.floor(gw.clock.now / DAY_MS) * DAY_MS;
  const events: UsageEvent[] = [];
  // Three days, two providers, 30 models, 8 hours a day: 1,440 hourly rows.
  for (let d = 0; d < 3; d++)
    for (let hour = 0; hour < 8; hour++)
      for (let m = 0; m < 30; m++)
        for (const provider of ["openai", "anthropic"])
          events.push(
            event({
              provider,
              model: `model-${m}`,
              createdAt: today - d * DAY_MS + hour * 3_600_000,
              status: m === 0 ? 502 : 200,
              costMicros: provider === "openai" ? 100 : 30,
              // Of each call's 10 prompt tokens, OpenAI's cache served 6; Anthropic's stored 4.
              cacheReadTokens: provider === "openai" ? 6 : 0,
              cacheWriteTokens: provider === "openai" ? 0 : 4,
            }),
          );
  await gw.rt.store.writeFlush({ id: crypto.randomUUID(), events, keyTouches: [] });

  read.rows = 0;
  const r = await gw.op({ key: gw.init.keyValue }, "usage.daily", { days: 366 });
  expect(r.status).toBe(200);
  expect(read.rows).toBeLessThanOrEqual(3 * 2);
  const days = r.body.data.days as { requests: number; costMicros: number; cacheReadTokens: number }[];
  expect(days).toHaveLength(366);
  expect(days.slice(-3)).toEqual(
    [2, 1, 0].map((d) => ({
      date: new Date(today - d * DAY_MS).toISOString().slice(0, 10),
      requests: 480,
      errors: 16,
      costMicros: 240 * 100 + 240 * 30,
      promptTokens: 4_800,
      cacheReadTokens: 1_440,
      cacheWriteTokens: 960,
      byProvider: {
        openai: { requests: 240, costMicros: 24_000, promptTokens: 2_400, cacheReadTokens: 1_440, cacheWriteTokens: 0 },
        anthropic: { requests: 240, costMicros: 7_200, promptTokens: 2_400, cacheReadTokens: 0, cacheWriteTokens: 960 },
      },
    })),
  );
  expect(days.slice(0, -3).every((d) => d.requests === 0 && d.costMicros === 0 && d.cacheReadTokens === 0)).toBe(true);

  const one = await gw.op({ key: gw.init.keyValue }, "usage.daily", { days: 1, provider: "anthropic" });
  expect(one.body.data.days).toEqual([
    {
      date: new Date(today).toISOString().slice(0, 10),
      requests: 240,
      errors: 8,
      costMicros: 7_200,
      promptTokens: 2_400,
      cacheReadTokens: 0,
      cacheWriteTokens: 960,
      byProvider: { anthropic: { requests: 240, costMicros: 7_200, promptTokens: 2_400, cacheReadTokens: 0, cacheWriteTokens: 960 } },
    },
  ]);
});
