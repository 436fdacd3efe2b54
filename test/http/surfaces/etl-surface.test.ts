/**
 * `POST /api/user/etl/optimize` and `GET /api/user/etl-metrics` in process, on SQLite and
 * on Postgres: optimizes sent at once are each counted exactly once in the running
 * totals, and the hourly retention prune of the document rows leaves the metrics'
 * answer as it was (totals over every document, the ten most recent listed).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runMaintenance } from "../../../src/services/maintenance.ts";
import { type InProcessGateway, startInProcessGateway } from "../../support/in-process-gateway.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";

const DAY_MS = 86_400_000;

const pg = postgresPerFile();

const stores: [string, () => Promise<Record<string, string>>][] = [
  ["SQLite", async () => ({})],
  ["Postgres", async () => ({ GW_DATABASE_URL: await pg.createDatabase() })],
];

for (const [name, env] of stores)
  describe(name, () => {
    let gw: InProcessGateway;
    beforeAll(async () => {
      gw = await startInProcessGateway({ env: await env() });
    }, 60_000);
    afterAll(() => gw?.stop());

    const auth = () => ({ authorization: `Bearer ${gw.init.keyValue}` });
    const optimize = async (document: string) => {
      const res = await gw.handle(
        new Request(`${gw.origin}/api/user/etl/optimize`, {
          method: "POST",
          headers: { ...auth(), "content-type": "application/json" },
          body: JSON.stringify({ document }),
        }),
      );
      expect(res.status).toBe(200);
      return (await res.json()) as { documentId: string; originalTokens: number; optimizedTokens: number };
    };
    const metrics = async () => {
      const res = await gw.handle(new Request(`${gw.origin}/api/user/etl-metrics`, { headers: auth() }));
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, any>;
    };

    test("50 optimizes at once are each counted once; the prune of old documents changes nothing in the metrics", async () => {
      const para = (n: number) => `Clause ${n}: the supplier delivers within thirty days of each written order.`;
      const send = (from: number, count: number) =>
        Promise.all(Array.from({ length: count }, (_, i) => optimize([para(from + i), para(from + i + 1), para(from + i)].join("\n\n"))));
      const first = await send(0, 50);
      expect(await metrics()).toMatchObject({
        totalDocuments: 50,
        totalOriginalTokens: first.reduce((n, r) => n + r.originalTokens, 0),
        totalOptimizedTokens: first.reduce((n, r) => n + r.optimizedTokens, 0),
        transformations: { deduplication: 50 },
      });
      // Ten more a minute later: the ten newest, which the metrics list and the prune keeps.
      gw.clock.now += 60_000;
      const second = await send(100, 10);
      const before = await metrics();
      expect(before).toMatchObject({
        totalDocuments: 60,
        totalOriginalTokens: [...first, ...second].reduce((n, r) => n + r.originalTokens, 0),
        transformations: { deduplication: 60, normalization: 0, compression: 0, chunking: 0 },
        topTransformation: "deduplication",
      });
      expect(before.recentDocuments.map((d: { documentId: string }) => d.documentId).sort()).toEqual(
        second.map((r) => r.documentId).sort(),
      );

      // A month and a day on, past GW_USAGE_RETENTION_DAYS (30): all but the ten newest documents go.
      gw.clock.now += 31 * DAY_MS;
      const removed = await runMaintenance(gw.rt.store, { usageDays: 30, auditDays: 365, notificationDays: 90 }, gw.clock.now);
      expect(removed.etlDocuments).toBe(50);
      expect(await metrics()).toEqual(before);

      // A later document adds to the same totals.
      const next = await optimize(para(1));
      const after = await metrics();
      expect(after.totalDocuments).toBe(61);
      expect(after.totalOriginalTokens).toBe(before.totalOriginalTokens + next.originalTokens);
      expect(after.recentDocuments[0].documentId).toBe(next.documentId);
      expect(after.recentDocuments.slice(1)).toEqual(before.recentDocuments.slice(0, 9));
    });
  });
