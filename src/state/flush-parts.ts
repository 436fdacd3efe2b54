/**
 * How the write-behind buffer cuts what it writes into batches: what is pending into
 * batches of a bounded size before any is sent (`boundedBatches`), and a batch the store
 * refused into halves (`splitRefused`). A batch is never cut after it may have been sent
 * for any other reason: its id is what tells the store it already holds it.
 */
import type { FlushBatch, KeyTouch, UsageEvent } from "../domain/types.ts";

/**
 * The most rows (events and key counters) one batch holds. After an outage everything
 * that waited (up to GW_USAGE_BUFFER_MAX_EVENTS) is pending at once; written as one
 * transaction it could take longer than GW_STORE_TIMEOUT_S, time out, be retried whole
 * and time out again for ever. Measured on Postgres (docs/decisions.md "Usage
 * accounting"): 10,000 events take about 0.1 s, a tenth of the shortest bound (1 s),
 * at under twice the per-row cost of the largest batches.
 */
export const MAX_BATCH_ROWS = 10_000;

/**
 * What is pending as batches of at most `maxRows` rows, each with a random id of its own
 * (a counter would restart with the process and name a new batch after a stored one). Key
 * counters go in the first batches: one row per key used, so a handful beside the events,
 * and the keys' request counts and last use are current soonest. The usual flush fits in
 * one batch and keeps the arrays it was handed (no copy).
 */
export function boundedBatches(events: UsageEvent[], keyTouches: KeyTouch[], bound = MAX_BATCH_ROWS): FlushBatch[] {
  // At least a row a batch, or the loop below would never end.
  const maxRows = Math.max(1, Math.floor(bound));
  if (events.length + keyTouches.length <= maxRows) return [{ id: crypto.randomUUID(), events, keyTouches }];
  const batches: FlushBatch[] = [];
  let e = 0;
  let t = 0;
  while (e < events.length || t < keyTouches.length) {
    const touches = keyTouches.slice(t, t + maxRows);
    t += touches.length;
    const rows = events.slice(e, e + maxRows - touches.length);
    e += rows.length;
    batches.push({ id: crypto.randomUUID(), events: rows, keyTouches: touches });
  }
  return batches;
}

/**
 * A refused part in two to write in its place, or null when it cannot be split (one
 * row, or key counters alone). Key counters go apart from the events first: they are
 * the gateway's own sums, so an event is the likelier culprit. Each half is named after
 * its parent (`<id>.0`, `<id>.1`): the refused parent wrote nothing, and can no longer
 * (its transaction was refused, and a retry's refusal came after the id it records, so
 * after any earlier try of it ended uncommitted), so its halves are new batches to the
 * store, and the same part always gets the same name.
 */
export function splitRefused(part: FlushBatch): FlushBatch[] | null {
  const { id, events, keyTouches } = part;
  const halves = (a: Omit<FlushBatch, "id">, b: Omit<FlushBatch, "id">) => [
    { id: `${id}.0`, ...a },
    { id: `${id}.1`, ...b },
  ];
  if (events.length > 0 && keyTouches.length > 0) return halves({ events, keyTouches: [] }, { events: [], keyTouches });
  if (events.length > 1) {
    const half = events.length >> 1;
    return halves({ events: events.slice(0, half), keyTouches: [] }, { events: events.slice(half), keyTouches: [] });
  }
  if (keyTouches.length > 1) {
    const half = keyTouches.length >> 1;
    return halves({ events: [], keyTouches: keyTouches.slice(0, half) }, { events: [], keyTouches: keyTouches.slice(half) });
  }
  return null;
}
