import { describe, expect, test } from "bun:test";
import type { FlushBatch, UsageEvent } from "../../src/domain/types.ts";
import { UsageBuffer } from "../../src/state/usage-buffer.ts";
import { RowsRefused } from "../../src/store/rows-refused.ts";
import { usageEvent } from "../support/records.ts";

const event = (i: number, keyId: string | null = "k1", costMicros = 10): UsageEvent =>
  usageEvent("o1", keyId, {
    id: `evt_${i}`,
    requestId: `r${i}`,
    promptTokens: 1,
    completionTokens: 1,
    costMicros,
    latencyMs: 1,
    createdAt: 1000 + i,
  });

function buffer(opts: { intervalMs?: number; maxEvents?: number; fail?: () => boolean } = {}) {
  const batches: FlushBatch[] = [];
  const b = new UsageBuffer({
    intervalMs: opts.intervalMs ?? 60_000,
    maxEvents: opts.maxEvents ?? 1000,
    write: async (batch) => {
      await Bun.sleep(1);
      if (opts.fail?.()) throw new Error("disk full");
      batches.push(batch);
    },
  });
  return { b, batches };
}

describe("UsageBuffer", () => {
  test("flushes at once when maxEvents are pending", async () => {
    const { b, batches } = buffer({ maxEvents: 3 });
    b.record(event(1));
    b.record(event(2));
    expect(batches).toHaveLength(0);
    b.record(event(3));
    await Bun.sleep(10);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.events.map((e) => e.id)).toEqual(["evt_1", "evt_2", "evt_3"]);
    await b.stop();
  });

  test("flushes on its interval", async () => {
    const { b, batches } = buffer({ intervalMs: 20 });
    b.record(event(1));
    await Bun.sleep(60);
    expect(batches.flatMap((x) => x.events)).toHaveLength(1);
    await b.stop();
  });

  test("aggregates one key touch per key: requests, spend, latest use", async () => {
    const { b, batches } = buffer();
    b.record(event(1, "k1", 5));
    b.record(event(3, "k1", 7));
    b.record(event(2, "k2", 1));
    b.touch("k2");
    b.record(event(4, null, 9));
    await b.flush();
    const touches = Object.fromEntries(batches[0]!.keyTouches.map((t) => [t.keyId, t]));
    // Requests are counted at admission (touch); events add spend and the time of use.
    expect(touches.k1).toMatchObject({ requests: 0, spendMicros: 12, lastUsedAt: 1003 });
    expect(touches.k2?.requests).toBe(1);
    expect(batches[0]!.events).toHaveLength(4);
    await b.stop();
  });

  test("a failed write keeps the batch, in order, and writes it once later", async () => {
    let failing = true;
    const { b, batches } = buffer({ fail: () => failing });
    b.record(event(1));
    b.record(event(2));
    await b.flush();
    expect(batches).toHaveLength(0);
    expect(b.stats()).toMatchObject({ pending: 2, failures: 1 });
    b.record(event(3));
    failing = false;
    await b.flush();
    const written = batches.flatMap((x) => x.events.map((e) => e.id));
    expect(written).toEqual(["evt_1", "evt_2", "evt_3"]);
    expect(batches.flatMap((x) => x.keyTouches).reduce((n, t) => n + t.spendMicros, 0)).toBe(30);
    await b.stop();
  });

  test("events recorded during a flush go into the next one; stop writes everything", async () => {
    const { b, batches } = buffer();
    b.record(event(1));
    const flushing = b.flush();
    b.record(event(2));
    await flushing;
    await b.stop();
    expect(batches.flatMap((x) => x.events.map((e) => e.id))).toEqual(["evt_1", "evt_2"]);
    expect(b.stats()).toMatchObject({ pending: 0, flushLagMs: 0, flushedEvents: 2 });
  });

  test("flush lag is the age of the oldest pending item", async () => {
    const { b } = buffer();
    b.touch("k1");
    await Bun.sleep(30);
    expect(b.stats().flushLagMs).toBeGreaterThanOrEqual(25);
    await b.stop();
    expect(b.stats().flushLagMs).toBe(0);
  });
});

test("while the store stays down, the buffer keeps at most maxPending events (the newest), counts the rest dropped, and keeps every key counter", async () => {
  let down = true;
  const written: FlushBatch[] = [];
  const b = new UsageBuffer({
    intervalMs: 60_000,
    maxEvents: 1_000_000,
    maxPending: 5,
    write: async (batch) => {
      if (down) throw new Error("connection refused");
      written.push(batch);
    },
  });
  for (let i = 0; i < 8; i++) b.record(event(i));
  await b.flush();
  expect(b.stats()).toMatchObject({ pending: 5, droppedEvents: 3, failures: 1 });
  down = false;
  await b.stop();
  expect(written.flatMap((w) => w.events.map((e) => e.id))).toEqual(["evt_3", "evt_4", "evt_5", "evt_6", "evt_7"]);
  expect(written.flatMap((w) => w.keyTouches)).toEqual([{ keyId: "k1", requests: 0, spendMicros: 80, lastUsedAt: 1007 }]);
});

/** A store that refuses, whole, any batch holding a row with model "bad", and fails for a passing reason when `down()` says so. */
function refusingStore(down: () => boolean = () => false) {
  const written: FlushBatch[] = [];
  const write = async (batch: FlushBatch) => {
    if (down()) throw new Error("SQLITE_BUSY: database is locked");
    if (batch.events.some((e) => e.model === "bad")) throw new RowsRefused({ code: "SQLITE_CONSTRAINT_NOTNULL" });
    written.push(batch);
  };
  return { written, write, ids: () => written.flatMap((w) => w.events.map((e) => e.id)) };
}

const bad = (i: number): UsageEvent => ({ ...event(i), model: "bad" });

test("a batch the store refuses is split: its good rows are written once, the refused ones set aside and counted, and flushing goes on", async () => {
  const store = refusingStore();
  const setAside: string[] = [];
  const b = new UsageBuffer({
    write: store.write,
    intervalMs: 60_000,
    maxEvents: 1_000_000,
    onRefused: (rows) => setAside.push(...rows.events.map((e) => e.id)),
  });
  for (let i = 0; i < 20; i++) b.record(i === 3 || i === 17 ? bad(i) : event(i));
  await b.flush();
  b.record(event(20));
  await b.flush();
  const good = Array.from({ length: 21 }, (_, i) => `evt_${i}`).filter((id) => id !== "evt_3" && id !== "evt_17");
  expect(store.ids()).toEqual(good);
  expect(setAside).toEqual(["evt_3", "evt_17"]);
  // Key counters are written once, with every call's spend.
  expect(store.written.flatMap((w) => w.keyTouches).reduce((n, t) => n + t.spendMicros, 0)).toBe(210);
  expect(b.stats()).toMatchObject({ refusedEvents: 2, failures: 0, pending: 0, flushLagMs: 0 });
  await b.stop();
});

test("a passing failure retries the batch whole and as it was, before anything newer, and sets nothing aside", async () => {
  let down = true;
  const store = refusingStore(() => down);
  const b = new UsageBuffer({ write: store.write, intervalMs: 60_000, maxEvents: 1_000_000 });
  b.record(event(1));
  b.record(event(2));
  await b.flush();
  expect(b.stats()).toMatchObject({ pending: 2, failures: 1, refusedEvents: 0 });
  b.record(event(3));
  down = false;
  await b.flush();
  // The same batch again (the store knows a batch it already holds by its id), then the newer one.
  expect(store.written.map((w) => w.events.map((e) => e.id))).toEqual([["evt_1", "evt_2"], ["evt_3"]]);
  expect(b.stats()).toMatchObject({ pending: 0, failures: 1, refusedEvents: 0 });
  await b.stop();
});

test("a passing failure while a refused batch is split keeps its unwritten parts, each whole, and writes every good row once", async () => {
  let writes = 0;
  let down = false;
  const store = refusingStore(() => down);
  const b = new UsageBuffer({
    // The store goes away at the third write (inside the split) and comes back for the next flush.
    write: async (batch) => {
      if (++writes === 3) down = true;
      return store.write(batch);
    },
    intervalMs: 60_000,
    maxEvents: 1_000_000,
  });
  for (let i = 0; i < 8; i++) b.record(i === 6 ? bad(i) : event(i));
  await b.flush();
  expect(b.stats()).toMatchObject({ failures: 1, refusedEvents: 0 });
  expect(b.stats().pending).toBeGreaterThan(0);
  down = false;
  await b.stop();
  expect(store.ids().sort()).toEqual(["evt_0", "evt_1", "evt_2", "evt_3", "evt_4", "evt_5", "evt_7"]);
  expect(b.stats()).toMatchObject({ refusedEvents: 1, pending: 0 });
});

test("every batch carries its own random id, the same on each retry; the parts of a split are named after their parent", async () => {
  let down = true;
  const tried: FlushBatch[] = [];
  const store = refusingStore(() => down);
  const b = new UsageBuffer({
    write: (batch) => {
      // A copy: the buffer may later trim a kept part's events.
      tried.push({ ...batch });
      return store.write(batch);
    },
    intervalMs: 60_000,
    maxEvents: 1_000_000,
  });
  b.touch("k1");
  await b.flush();
  down = false;
  await b.flush();
  b.touch("k1");
  await b.flush();
  const [first, retry, next] = tried.map((t) => t.id);
  expect(first).toMatch(/^[0-9a-f-]{36}$/);
  expect(retry).toBe(first as string);
  expect(next).toMatch(/^[0-9a-f-]{36}$/);
  expect(next).not.toBe(first as string);

  tried.length = 0;
  // Refused whole, then counters apart from events, then the events in halves: [0, 1] and [bad, 3].
  for (let i = 0; i < 4; i++) b.record(i === 2 ? bad(i) : event(i));
  await b.flush();
  const root = tried[0]?.id as string;
  expect(tried.map((t) => [t.id.slice(root.length), t.events.map((e) => e.id), t.keyTouches.length])).toEqual([
    ["", ["evt_0", "evt_1", "evt_2", "evt_3"], 1],
    [".0", ["evt_0", "evt_1", "evt_2", "evt_3"], 0],
    [".0.0", ["evt_0", "evt_1"], 0],
    [".0.1", ["evt_2", "evt_3"], 0],
    [".0.1.0", ["evt_2"], 0],
    [".0.1.1", ["evt_3"], 0],
    [".1", [], 1],
  ]);
  await b.stop();
});

describe("a store that keeps refusing writes", () => {
  test("is reported at its first failure, then at most once a minute with the count since, and once when it recovers", async () => {
    let clock = 0;
    let failing = true;
    const reports: (["failing", number, string] | ["recovered", number, number])[] = [];
    const b = new UsageBuffer({
      intervalMs: 60_000,
      maxEvents: 1000,
      now: () => clock,
      write: async () => {
        if (failing) throw new Error("SQLITE_FULL: database or disk is full");
      },
      report: {
        failing: (err, _batch, failures) => reports.push(["failing", failures, String(err)]),
        recovered: (failures, downMs) => reports.push(["recovered", failures, downMs]),
      },
    });
    b.record(event(1));
    // Four flushes a second for 90 s, as the default interval fails on a full disk.
    for (let tick = 0; tick < 360; tick++) {
      await b.flush();
      clock += 250;
    }
    expect(reports).toEqual([
      ["failing", 1, "Error: SQLITE_FULL: database or disk is full"],
      ["failing", 240, "Error: SQLITE_FULL: database or disk is full"],
    ]);
    failing = false;
    await b.flush();
    await b.flush();
    b.record(event(2));
    await b.flush();
    expect(reports.slice(2)).toEqual([["recovered", 360, 90_000]]);
    expect(b.stats()).toMatchObject({ pending: 0, failures: 360 });
    // A later outage is reported from its first failure again.
    failing = true;
    b.record(event(3));
    await b.flush();
    expect(reports.at(-1)).toEqual(["failing", 1, "Error: SQLITE_FULL: database or disk is full"]);
    await b.stop();
  });
});

test("a backlog larger than one batch is written in batches of the bound; a failure keeps the unwritten ones, each whole under its id", async () => {
  let down = true;
  let writes = 0;
  const tried: FlushBatch[] = [];
  const written: FlushBatch[] = [];
  const b = new UsageBuffer({
    write: async (batch) => {
      tried.push({ ...batch });
      // Down through the outage, then once more at the second batch of the backlog.
      if (down || ++writes === 2) throw new Error("connection closed");
      written.push(batch);
    },
    intervalMs: 60_000,
    maxEvents: 1_000_000,
    maxBatchRows: 4,
  });
  for (let i = 0; i < 11; i++) b.record(event(i));
  await b.flush();
  expect(tried.map((t) => t.events.length + t.keyTouches.length)).toEqual([4]);
  down = false;
  await b.flush();
  expect(b.stats()).toMatchObject({ pending: 8, failures: 2 });
  await b.flush();
  expect(b.stats().pending).toBe(0);
  expect(tried.map((t) => [t.keyTouches.length, t.events.length])).toEqual([
    [1, 3],
    [1, 3],
    [0, 4],
    [0, 4],
    [0, 4],
  ]);
  // The retried batch kept its id and rows; the written ones are every row once.
  expect(tried[3]).toEqual(tried[2] as FlushBatch);
  expect(written.flatMap((w) => w.events.map((e) => e.id))).toEqual(Array.from({ length: 11 }, (_, i) => `evt_${i}`));
  expect(written.flatMap((w) => w.keyTouches)).toMatchObject([{ keyId: "k1", spendMicros: 110 }]);
  await b.stop();
});
