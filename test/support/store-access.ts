/**
 * Reads what a gateway wrote through the Store interface, never its SQLite file, so
 * the same tests hold for any store (GW_DATABASE_URL in the environment picks it).
 */
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";

export async function withStore<T>(dataDir: string, read: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore({ databaseUrl: process.env.GW_DATABASE_URL ?? null, dataDir });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}
