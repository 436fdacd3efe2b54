/**
 * The provider-configuration bound across connections and nodes: creates racing on
 * several connections to one database (Postgres under READ COMMITTED, where two
 * conditional inserts counting at once would both see room) and on two SQLite
 * connections to one file never write past it. The store contract checks the same
 * through one store on each database.
 */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../../src/domain/ids.ts";
import type { Organization } from "../../../src/domain/types.ts";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import type { Store } from "../../../src/store/store.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { providerConfigRecord } from "../../support/records.ts";

const pg = postgresPerFile();

const BOUND = 25;

const config = (orgId: string, i: number) => providerConfigRecord(orgId, { name: `p${i}`, createdAt: i, updatedAt: i });

/** 90 creates at once, spread over the stores: how many were written, and how many the organization holds. */
async function race(stores: Store[]): Promise<{ written: number; held: number }> {
  const org: Organization = { id: newId("org"), name: "Acme", tier: "enterprise", createdAt: 1 };
  await stores[0]!.createOrganization(org);
  const results = await Promise.all(
    Array.from({ length: 90 }, (_, i) => stores[i % stores.length]!.createProviderConfig(config(org.id, i), BOUND)),
  );
  return { written: results.filter(Boolean).length, held: (await stores[0]!.listProviderConfigs(org.id)).length };
}

test("Postgres: four nodes of four connections creating at once stop exactly at the bound", async () => {
  const url = await pg.createDatabase();
  const stores = Array.from({ length: 4 }, () => new PostgresStore(url, { max: 4 }));
  try {
    await stores[0]!.migrate();
    for (let round = 0; round < 3; round++) expect(await race(stores)).toEqual({ written: BOUND, held: BOUND });
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});

test("SQLite: two connections to one file creating at once stop exactly at the bound", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "gw-provider-bound-")), "gateway.db");
  const stores = [new SqliteStore(path), new SqliteStore(path)];
  try {
    await stores[0]!.migrate();
    expect(await race(stores)).toEqual({ written: BOUND, held: BOUND });
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});
