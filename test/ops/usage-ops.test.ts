/**
 * `usage.daily` over the operations endpoint. Any caller of the organization may read it
 * (a sandbox key too), for up to 366 days. The probe that found the hole: it read every
 * hourly roll-up row of the window into memory, one per hour, key, provider and model,
 * which for a year of an organization with many keys and models is millions of rows per
 * call. The store now sums them per day and provider, so what the operation holds is
 * bounded by days x providers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../src/domain/ids.ts";
import type { UsageEvent } from "../../src/domain/types.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

const DAY_MS = 86_400_000;
let gw: InProcessGateway;
/** Rows the store handed back to the operation, counted under the real store. */
let rowsRead = 0;

beforeAll(async () => {
  gw = await startInProcessGateway();
  const store = gw.rt.store;
  for (const method of ["sumUsage", "listUsageHourly"] as const) {
    const real = (store[method] as (...a: unknown[]) => Promise<unknown[]>).bind(store);
    (store as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const rows = await real(...args);
      rowsRead += rows.length;
      return rows;
    };
  }
});

afterAll(() => gw.stop());

const event = (over: Partial<UsageEvent>): UsageEvent => ({
  id: newId("evt"),
  requestId: crypto.randomUUID(),
  orgId: gw.init.organization.id,
  keyId: gw.init.apiKey.id,
  userId: null,
  provider: "openai",
  model: "gpt-4o",
  promptTokens: 10,
  completionTokens: 5,
  costMicros: 100,
  latencyMs: 20,
  status: 200,
  errorCode: null,
  createdAt: gw.clock.now,
  ...over,
});

test("a year of many models and hours is read as one row per day and provider, with the same totals", async () => {
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
            }),
          );
  await gw.rt.store.writeFlush({ events, keyTouches: [] });

  rowsRead = 0;
  const r = await gw.op({ key: gw.init.keyValue }, "usage.daily", { days: 366 });
  expect(r.status).toBe(200);
  expect(rowsRead).toBeLessThanOrEqual(3 * 2);
  const days = r.body.data.days as { date: string; requests: number; errors: number; costMicros: number; byProvider: unknown }[];
  expect(days).toHaveLength(366);
  expect(days.slice(-3)).toEqual(
    [2, 1, 0].map((d) => ({
      date: new Date(today - d * DAY_MS).toISOString().slice(0, 10),
      requests: 480,
      errors: 16,
      costMicros: 240 * 100 + 240 * 30,
      byProvider: { openai: { requests: 240, costMicros: 24_000 }, anthropic: { requests: 240, costMicros: 7_200 } },
    })),
  );
  expect(days.slice(0, -3).every((d) => d.requests === 0 && d.costMicros === 0)).toBe(true);

  const one = await gw.op({ key: gw.init.keyValue }, "usage.daily", { days: 1, provider: "anthropic" });
  expect(one.body.data.days).toEqual([
    {
      date: new Date(today).toISOString().slice(0, 10),
      requests: 240,
      errors: 8,
      costMicros: 7_200,
      byProvider: { anthropic: { requests: 240, costMicros: 7_200 } },
    },
  ]);
});
