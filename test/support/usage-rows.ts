/**
 * A count of the usage rows a store hands back to its callers (sums and hourly roll-ups) under the real
 * store, which is how a test sees that an operation reads a bounded number of rows
 * however many the window holds.
 */
import type { UsageEvent } from "../../src/domain/types.ts";
import type { Store } from "../../src/store/store.ts";
import { withStore } from "./store-access.ts";

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

/** The usage row of one request, waited for (the gateway writes rows in batches): throws when none comes. */
export async function usageRowOf(dataDir: string, orgId: string, requestId: string | null): Promise<UsageEvent> {
  for (let i = 0; i < 400; i++) {
    const row = (await withStore(dataDir, (store) => store.listUsageEvents(orgId))).find((e) => e.requestId === requestId);
    if (row) return row;
    await Bun.sleep(25);
  }
  throw new Error(`no usage row for ${requestId}`);
}
