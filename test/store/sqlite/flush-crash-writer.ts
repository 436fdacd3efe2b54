/**
 * A process that writes usage flushes into a SQLite store until it is killed: the
 * writer sqlite-crash.test.ts kills with SIGKILL at whatever statement it is in.
 * Usage: bun flush-crash-writer.ts DB_PATH ORG_ID KEY_ID
 */
import type { UsageEvent } from "../../../src/domain/types.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import { usageEvent } from "../../support/records.ts";

const [path, orgId, keyId] = process.argv.slice(2) as [string, string, string];
const store = new SqliteStore(path);
const hour = 3_600_000;
for (let flush = 0; ; flush++) {
  // Several hours and models a batch: each flush writes events, hourly and daily roll-ups and the key's counters.
  const events: UsageEvent[] = Array.from({ length: 2000 }, (_, i) =>
    usageEvent(orgId, keyId, { createdAt: 1_700_000_000_000 + (i % 7) * hour, model: i % 3 ? "gpt-4o" : "gpt-4o-mini", costMicros: 7 }),
  );
  await store.writeFlush({
    id: crypto.randomUUID(),
    events,
    keyTouches: [{ keyId, lastUsedAt: 1, requests: events.length, spendMicros: 7 * events.length }],
  });
  console.log(`flushed ${flush + 1}`);
}
