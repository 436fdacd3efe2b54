/**
 * Usage rows for tests of what reads them: events to flush into a store, and a count of
 * the rows a store hands back to its callers (sums and hourly roll-ups) under the real
 * store, which is how a test sees that an operation reads a bounded number of rows
 * however many the window holds.
 */
import { newId } from "../../src/domain/ids.ts";
import type { UsageEvent } from "../../src/domain/types.ts";
import type { Store } from "../../src/store/store.ts";

/** One successful call of `keyId` in `orgId`, 100 micro-dollars, now; `over` changes any field. */
export function usageEvent(orgId: string, keyId: string | null, over: Partial<UsageEvent> = {}): UsageEvent {
  return {
    id: newId("evt"),
    requestId: crypto.randomUUID(),
    orgId,
    keyId,
    userId: null,
    provider: "openai",
    model: "gpt-4o",
    promptTokens: 10,
    completionTokens: 5,
    costMicros: 100,
    latencyMs: 20,
    status: 200,
    errorCode: null,
    createdAt: Date.now(),
    ...over,
  };
}

export function countUsageRowsRead(store: Store): { rows: number } {
  const read = { rows: 0 };
  for (const method of ["sumUsage", "listUsageHourly"] as const) {
    const real = (store[method] as (...a: unknown[]) => Promise<unknown[]>).bind(store);
    (store as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const rows = await real(...args);
      read.rows += rows.length;
      return rows;
    };
  }
  return read;
}
