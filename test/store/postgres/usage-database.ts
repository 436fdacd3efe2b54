/** For the Postgres flush tests: a migrated database with a key to record usage under, and a usage buffer flushed only when a test says. */
import { newId } from "../../../src/domain/ids.ts";
import { UsageBuffer } from "../../../src/state/usage-buffer.ts";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { apiKeyRecord } from "../../support/records.ts";

/** A migrated database with an organization and a key, and a store on it without a bound to count with. */
export async function usageDatabase(createDatabase: () => Promise<string>) {
  const url = await createDatabase();
  const direct = new PostgresStore(url, { max: 1 });
  await direct.migrate();
  const org = { id: newId("org"), name: "Acme", tier: "enterprise" as const, createdAt: 1 };
  await direct.createOrganization(org);
  const sa = { id: newId("sa"), orgId: org.id, name: "bot", description: "", role: "member" as const, createdBy: null, createdAt: 1 };
  await direct.createServiceAccount(sa);
  const key = apiKeyRecord(org.id, sa.id, { createdAt: 1 });
  await direct.createApiKey(key);
  return { url, direct, org, key };
}

/** A usage buffer writing to `node`, flushed only when a test says, its failures and every batch it tried kept. */
export function bufferOn(node: PostgresStore, maxBatchRows?: number) {
  const errors: unknown[] = [];
  const tried: number[] = [];
  const buffer = new UsageBuffer({
    write: (b) => {
      tried.push(b.events.length + b.keyTouches.length);
      return node.writeFlush(b);
    },
    intervalMs: 60_000,
    maxEvents: 1_000_000,
    onError: (e) => errors.push(e),
    maxBatchRows,
  });
  return { buffer, errors, tried };
}
