/**
 * A count of the usage rows a store hands back to its callers (sums and hourly roll-ups) under the real
 * store, which is how a test sees that an operation reads a bounded number of rows
 * however many the window holds.
 */
import type { Store } from "../../src/store/store.ts";

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
