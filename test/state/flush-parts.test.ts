/** How pending usage is cut into batches of a bounded size before any is sent. */
import { expect, test } from "bun:test";
import type { KeyTouch, UsageEvent } from "../../src/domain/types.ts";
import { boundedBatches, MAX_BATCH_ROWS } from "../../src/state/flush-parts.ts";

const events = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `evt_${i}` }) as UsageEvent);
const touches = (n: number): KeyTouch[] =>
  Array.from({ length: n }, (_, i) => ({ keyId: `k${i}`, requests: 1, spendMicros: 10, lastUsedAt: i }));

test("what fits in one batch stays one batch, on the arrays it was handed", () => {
  const e = events(MAX_BATCH_ROWS - 2);
  const t = touches(2);
  const [only, ...rest] = boundedBatches(e, t);
  expect(rest).toEqual([]);
  expect(only?.events).toBe(e);
  expect(only?.keyTouches).toBe(t);
});

test("a backlog is cut into batches of at most the bound, every row once and in order, key counters first, each batch with its own id", () => {
  const e = events(23);
  const t = touches(3);
  const batches = boundedBatches(e, t, 10);
  expect(batches.map((b) => [b.keyTouches.length, b.events.length])).toEqual([
    [3, 7],
    [0, 10],
    [0, 6],
  ]);
  expect(batches.flatMap((b) => b.events)).toEqual(e);
  expect(batches.flatMap((b) => b.keyTouches)).toEqual(t);
  expect(new Set(batches.map((b) => b.id)).size).toBe(3);
  for (const b of batches) expect(b.id).toMatch(/^[0-9a-f-]{36}$/);
});

test("more key counters than the bound take batches of their own", () => {
  const batches = boundedBatches(events(4), touches(25), 10);
  expect(batches.map((b) => [b.keyTouches.length, b.events.length])).toEqual([
    [10, 0],
    [10, 0],
    [5, 4],
  ]);
});
