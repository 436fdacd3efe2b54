/**
 * The usage flush alone: the embedded store's `writeFlush` of this tree against a base
 * revision's, each on its own database file, batches of the gateway's size alternating
 * (A B B A ...), CPU of this process per usage row (SQLite works on the calling thread).
 * The events are the in-process chat call's: one organization, key, provider and model;
 * with `--mixed`, every event another organization, key and model than the one before.
 * The driver's write by default; with `--store`, the SQL store's (what the buffer calls:
 * the driver's and whatever the store does around it).
 *
 *   bun bench/usage-flush.bench.ts [--base main] [--batches 40] [--rounds 15] [--size 1000] [--mixed] [--store]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { newId } from "../src/domain/ids.ts";
import type { FlushBatch, UsageEvent } from "../src/domain/types.ts";
import { ROOT } from "./lib/processes.ts";
import { exportRevision } from "./lib/revision.ts";
import { median, percentile } from "./lib/stats.ts";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "main" },
    batches: { type: "string", default: "40" },
    rounds: { type: "string", default: "15" },
    size: { type: "string", default: "1000" },
    mixed: { type: "boolean", default: false },
    store: { type: "boolean", default: false },
  },
});

interface Flusher {
  migrate(): Promise<void>;
  /** The time is the driver's (it records the batch's id with it); the store and an earlier driver ignore it. */
  writeFlush(batch: FlushBatch, writtenAt: number): Promise<unknown>;
  close(): Promise<void>;
}

const base = await exportRevision(args.base);
const dirs: string[] = [];
async function open(root: string): Promise<Flusher> {
  const { SqliteDriver } = await import(join(root, "src/store/sqlite/sqlite-driver.ts"));
  const { SqliteStore } = await import(join(root, "src/store/sqlite/sqlite-store.ts"));
  const dir = mkdtempSync(join(tmpdir(), "gw-flush-"));
  dirs.push(dir);
  const driver = new (args.store ? SqliteStore : SqliteDriver)(join(dir, "gateway.db")) as Flusher;
  await driver.migrate();
  return driver;
}

const orgIds = [newId("org"), newId("org"), newId("org")];
const keyIds = [newId("key"), newId("key")];
const models = ["gpt-5-nano", "gpt-4o-mini"];
const keyId = keyIds[0] as string;
let made = 0;
const event = (): UsageEvent => {
  const n = args.mixed ? made++ : 0;
  return {
    id: newId("evt"),
    requestId: crypto.randomUUID(),
    orgId: orgIds[n % 3] as string,
    keyId: keyIds[n % 2] as string,
    userId: null,
    provider: "openai",
    model: models[n % 2] as string,
    promptTokens: 260,
    completionTokens: 42,
    costMicros: 31,
    latencyMs: 2,
    status: 200,
    errorCode: null,
    createdAt: Date.now(),
    priceEstimated: false,
    applicationId: null,
    attempts: 1,
  };
};

const size = Number(args.size);
const batch = (): FlushBatch => ({
  id: crypto.randomUUID(),
  events: Array.from({ length: size }, event),
  keyTouches: [{ keyId, requests: size, spendMicros: 31 * size, lastUsedAt: Date.now() }],
});
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** CPU µs per row over `batches` flushes (their events built before the clock starts). */
async function round(store: Flusher): Promise<number> {
  const batches = Array.from({ length: Number(args.batches) }, batch);
  const start = cpu();
  for (const b of batches) await store.writeFlush(b, Date.now());
  return (cpu() - start) / (batches.length * size);
}

try {
  const a = await open(base.dir);
  const b = await open(ROOT);
  await round(a);
  await round(b);
  const ra: number[] = [];
  const rb: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < Number(args.rounds); i++) {
    // A B, then B A: neither side always goes first.
    let x: number;
    let y: number;
    if (i % 2 === 0) {
      x = await round(a);
      y = await round(b);
    } else {
      y = await round(b);
      x = await round(a);
    }
    ra.push(x);
    rb.push(y);
    ratios.push(y / x);
  }
  const [q1, q3] = [percentile(ratios, 25), percentile(ratios, 75)];
  console.log(
    `usage flush, ${size} rows a batch: base ${args.base} ${median(ra).toFixed(3)} µs a row, this tree ${median(rb).toFixed(3)}; ` +
      `${args.mixed ? "mixed, " : ""}${args.store ? "the store's, " : ""}ratio ${median(ratios).toFixed(3)} (${q1?.toFixed(3)}-${q3?.toFixed(3)}, ${ratios.length} pairs)`,
  );
  await a.close();
  await b.close();
} finally {
  base.remove();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
