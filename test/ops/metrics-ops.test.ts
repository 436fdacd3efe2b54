/**
 * `metrics.cost` and `metrics.comprehensive` over the operations endpoint, read by any
 * caller of the organization (a sandbox key too). The probe that found the hole: callers
 * name models (`name/any-model` through a provider of their own) and applications, so a
 * window holds a group per call if they like; grouping by model answered every group,
 * and the overview's top five models and keys were picked from every group in memory.
 * The store now answers the most costly groups only: `limit` (100 by default, at most
 * 1,000) for `metrics.cost`, with `moreGroups` when there were more, and five for the
 * overview.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { UsageEvent } from "../../src/domain/types.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { usageEvent } from "../support/records.ts";
import { countUsageRowsRead } from "../support/usage-rows.ts";

const MODELS = 300;
let gw: InProcessGateway;
let read: { rows: number };
const admin = () => ({ key: gw.init.keyValue });

beforeAll(async () => {
  gw = await startInProcessGateway();
  read = countUsageRowsRead(gw.rt.store);
  // 300 models a caller named, model-i costing i + 1 units, and 40 applications.
  const events: UsageEvent[] = Array.from({ length: MODELS }, (_, i) =>
    usageEvent(gw.init.organization.id, gw.init.apiKey.id, {
      model: `lab/model-${i}`,
      provider: "custom",
      costMicros: (i + 1) * 10_000,
      applicationId: `app-${i % 40}`,
      createdAt: gw.clock.now,
    }),
  );
  await gw.rt.store.writeFlush({ id: crypto.randomUUID(), events, keyTouches: [] });
});

afterAll(() => gw.stop());

const groupsOf = (data: { groups: Record<string, unknown>[] }, by: string) => data.groups.map((g) => g[by]);

test("metrics.cost by model answers the 100 most costly groups by default, and says there are more", async () => {
  read.rows = 0;
  const r = await gw.op(admin(), "metrics.cost", { groupBy: "model" });
  expect(r.status).toBe(200);
  const data = r.body.data;
  expect(data.moreGroups).toBe(true);
  expect(groupsOf(data, "model")).toEqual(Array.from({ length: 100 }, (_, i) => `lab/model-${MODELS - 1 - i}`));
  expect(data.groups[0]).toMatchObject({ costCents: 300, calls: 1 });
  // The totals still count every call.
  expect(data.totalCalls).toBe(MODELS);
  expect(data.totalCostCents).toBe((MODELS * (MODELS + 1)) / 2);
  // The provider totals and one more than the page: never a row per model.
  expect(read.rows).toBeLessThanOrEqual(1 + 101);
});

test("`limit` chooses how many, up to 1,000; a grouping with fewer groups says there are no more", async () => {
  const few = await gw.op(admin(), "metrics.cost", { groupBy: "model", limit: 3 });
  expect(groupsOf(few.body.data, "model")).toEqual(["lab/model-299", "lab/model-298", "lab/model-297"]);
  expect(few.body.data.moreGroups).toBe(true);
  const all = await gw.op(admin(), "metrics.cost", { groupBy: "application", limit: 1000 });
  expect(all.body.data.groups).toHaveLength(40);
  expect(all.body.data.moreGroups).toBe(false);
  const byDay = await gw.op(admin(), "metrics.cost", { groupBy: "day", windowDays: 366 });
  expect(byDay.body.data).toMatchObject({ moreGroups: false, groups: [{ calls: MODELS }] });
  for (const limit of [0, 1001, 2.5, "10"]) {
    const bad = await gw.op(admin(), "metrics.cost", { groupBy: "model", limit });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: "invalid_request" });
  }
});

test("metrics.comprehensive reads only its top five models and keys from the store", async () => {
  read.rows = 0;
  const r = await gw.op({ key: gw.init.keyValue }, "metrics.comprehensive", {});
  expect(r.status).toBe(200);
  expect(r.body.data.topModels.map((m: { model: string }) => m.model)).toEqual([299, 298, 297, 296, 295].map((i) => `lab/model-${i}`));
  expect(r.body.data.topKeys).toMatchObject([{ key: gw.init.apiKey.id, calls: MODELS }]);
  expect(r.body.data.calls).toBe(MODELS);
  // Providers (1), top models (5), top keys (1), days by provider (1), this month's total (1).
  expect(read.rows).toBeLessThanOrEqual(10);
});
