/**
 * A usage flush whose commit's acknowledgement is lost, over each store (sqlite-store.test.ts
 * and postgres-store.test.ts call it): the buffer retries the batch and the store must add
 * it once, whether the batch holds events or key counters alone, or is one of a backlog
 * cut into batches.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { newId } from "../../src/domain/ids.ts";
import type { FlushBatch, Organization, UsageEvent } from "../../src/domain/types.ts";
import { UsageBuffer } from "../../src/state/usage-buffer.ts";
import type { Store } from "../../src/store/store.ts";
import { apiKeyRecord, usageEvent } from "../support/records.ts";

export function runFlushRetryContract(name: string, makeStore: () => Promise<Store>) {
  describe(`${name}: a flush retried after its commit`, () => {
    let store: Store;
    let org: Organization;
    let keyId: string;

    beforeEach(async () => {
      store = await makeStore();
      await store.migrate();
      org = { id: newId("org"), name: "Acme", tier: "enterprise", createdAt: 1 };
      await store.createOrganization(org);
      const sa = { id: newId("sa"), orgId: org.id, name: "bot", description: "", role: "member" as const, createdBy: null, createdAt: 1 };
      await store.createServiceAccount(sa);
      const key = apiKeyRecord(org.id, sa.id, { createdAt: 1 });
      await store.createApiKey(key);
      keyId = key.id;
    });

    const usage = (createdAt: number, model = "gpt-4o"): UsageEvent =>
      usageEvent(org.id, keyId, { createdAt, model, provider: model === "bad" ? (null as unknown as string) : "openai" });

    /**
     * A buffer over the store whose every batch's first acknowledgement is lost: the store
     * commits it, then the write rejects as a dropped connection would (a passing failure).
     */
    function losingAcks(maxBatchRows?: number) {
      const acked = new WeakSet<FlushBatch>();
      const errors: unknown[] = [];
      const refused: string[] = [];
      const buffer = new UsageBuffer({
        write: async (batch) => {
          await store.writeFlush(batch);
          if (acked.has(batch)) return;
          acked.add(batch);
          throw new Error("connection reset after commit");
        },
        intervalMs: 60_000,
        maxEvents: 1_000_000,
        onError: (err) => errors.push(err),
        onRefused: (rows) => refused.push(...rows.events.map((e) => e.id)),
        maxBatchRows,
      });
      /** Flushes until a flush loses nothing more (each batch loses one acknowledgement at most). */
      const drain = async () => {
        let seen = -1;
        while (errors.length !== seen) {
          seen = errors.length;
          await buffer.flush();
        }
        await buffer.stop();
      };
      return { buffer, errors, refused, drain };
    }

    test("the store skips a batch whose id it holds, even one of key counters alone; another id is another batch", async () => {
      const touch = { keyId, requests: 2, spendMicros: 0, lastUsedAt: 5 };
      const batch: FlushBatch = { id: crypto.randomUUID(), events: [], keyTouches: [touch] };
      await store.writeFlush(batch);
      await store.writeFlush(batch);
      expect(await store.getApiKey(keyId)).toMatchObject({ requestCount: 2 });
      await store.writeFlush({ ...batch, id: crypto.randomUUID() });
      expect(await store.getApiKey(keyId)).toMatchObject({ requestCount: 4 });
    });

    test("key counters alone (requests counted at admission, no call accounted) are added once", async () => {
      const { buffer, errors, drain } = losingAcks();
      for (let i = 0; i < 3; i++) buffer.touch(keyId);
      await drain();
      expect(errors).toHaveLength(1);
      expect(await store.getApiKey(keyId)).toMatchObject({ requestCount: 3, spentMicros: 0 });
    });

    test("a batch with events and counters is added once: rows, roll-ups and counters", async () => {
      const { buffer, errors, drain } = losingAcks();
      const hour = 3_600_000 * 510_000;
      const events = [usage(hour + 1), usage(hour + 2)];
      for (const e of events) {
        buffer.touch(keyId);
        buffer.record(e);
      }
      await drain();
      expect(errors).toHaveLength(1);
      expect((await store.listUsageEvents(org.id)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([{ requests: 2, costMicros: 200 }]);
      expect(await store.getApiKey(keyId)).toMatchObject({ requestCount: 2, spentMicros: 200 });
    });

    test("a refused row inside a batch with counters: each part of the split, retried after its commit, is added once", async () => {
      const { buffer, errors, refused, drain } = losingAcks();
      const hour = 3_600_000 * 510_100;
      const events = Array.from({ length: 6 }, (_, i) => usage(hour + i, i === 4 ? "bad" : "gpt-4o"));
      for (const e of events) {
        buffer.touch(keyId);
        buffer.record(e);
      }
      await drain();
      const good = events.filter((e) => e.model !== "bad");
      // The counters' part and every part of good events lost its first acknowledgement.
      expect(errors.length).toBeGreaterThanOrEqual(3);
      expect(refused).toEqual([(events[4] as UsageEvent).id]);
      expect((await store.listUsageEvents(org.id)).map((e) => e.id)).toEqual(good.map((e) => e.id));
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([{ requests: 5, costMicros: 500 }]);
      // Every call's request and spend, the refused one's included: each was made.
      expect(await store.getApiKey(keyId)).toMatchObject({ requestCount: 6, spentMicros: 600 });
    });

    test("a backlog larger than one batch is written in bounded batches, each retried after its commit and added once", async () => {
      const { buffer, errors, drain } = losingAcks(4);
      const hour = 3_600_000 * 510_200;
      const events = Array.from({ length: 10 }, (_, i) => usage(hour + i));
      for (const e of events) {
        buffer.touch(keyId);
        buffer.record(e);
      }
      await drain();
      // Eleven rows (ten events, one key counter) in three batches, each losing one acknowledgement.
      expect(errors).toHaveLength(3);
      expect((await store.listUsageEvents(org.id)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(await store.listUsageHourly(org.id, hour, hour + 3_600_000)).toMatchObject([{ requests: 10, costMicros: 1000 }]);
      expect(await store.getApiKey(keyId)).toMatchObject({ requestCount: 10, spentMicros: 1000 });
    });
  });
}
