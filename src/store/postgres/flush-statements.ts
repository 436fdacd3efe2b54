/**
 * One write-behind flush as a few multi-row statements, for Postgres: the events in
 * chunks, every hourly and daily roll-up row in one upsert each, every key counter in one UPDATE ...
 * FROM (VALUES ...). Roll-up rows and keys are sorted, so two nodes flushing together
 * lock rows in the same order and never deadlock.
 */
import type { FlushBatch, KeyTouch } from "../../domain/types.ts";
import { type HourlyDelta, rollUpDaily } from "../hourly-rollup.ts";
import { DAILY_ROLLUP, HOURLY_ROLLUP, type RollupTable } from "../rollup-upserts.ts";
import { USAGE_EVENT_COLUMNS, usageEventParams } from "../sql/rows.ts";
import type { Statement } from "../sql/sql-driver.ts";

/** Events per INSERT: a parameter per column each (19), well below Postgres's 65,535 per statement. */
const EVENTS_PER_INSERT = 1000;
const ROWS_PER_UPSERT = 4000;

/** Placeholder lists built so far, per row width and casts: the text, and where each row ends in it. */
const built = new Map<string, { text: string; ends: number[] }>();

/**
 * `($1, $2), ($3, $4)` for `rows` rows of `width` values, each cast as `casts` says (VALUES
 * lists need types). The list for fewer rows is a prefix of the list for more, so each
 * shape is built once (grown when a flush needs more rows) and every flush slices it:
 * writing 14 placeholders per event on every flush was a noticeable part of a flush's CPU.
 */
export function placeholders(rows: number, width: number, casts: string[] = []): string {
  const shape = `${width}:${casts.join(",")}`;
  let list = built.get(shape);
  if (!list || list.ends.length < rows) {
    const ends: number[] = [];
    let text = "";
    let n = 0;
    for (let r = 0; r < Math.max(rows, list?.ends.length ?? 0); r++) {
      let row = r === 0 ? "(" : ", (";
      for (let c = 0; c < width; c++) row += `${c === 0 ? "" : ", "}$${++n}${casts[c] ? `::${casts[c]}` : ""}`;
      text += `${row})`;
      ends.push(text.length);
    }
    list = { text, ends };
    built.set(shape, list);
  }
  return rows === 0 ? "" : list.text.slice(0, list.ends[rows - 1]);
}

export function flushStatements(batch: FlushBatch, hourly: HourlyDelta[]): Statement[] {
  const out: Statement[] = [];
  const events = batch.events;
  for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
    const end = Math.min(i + EVENTS_PER_INSERT, events.length);
    out.push({
      text: `INSERT INTO usage_events (${USAGE_EVENT_COLUMNS.join(", ")}) VALUES ${placeholders(end - i, USAGE_EVENT_COLUMNS.length)}`,
      params: usageEventParams(events, i, end),
    });
  }
  const rows = [...hourly].sort(
    (a, b) =>
      compare(a.orgId, b.orgId) ||
      a.hour - b.hour ||
      compare(a.keyId, b.keyId) ||
      compare(a.provider, b.provider) ||
      compare(a.model, b.model),
  );
  for (let i = 0; i < rows.length; i += ROWS_PER_UPSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_UPSERT);
    out.push(rollupUpsert(HOURLY_ROLLUP, chunk));
  }
  const days = rollUpDaily(events).sort(
    (a, b) =>
      compare(a.orgId, b.orgId) ||
      a.hour - b.hour ||
      compare(a.provider, b.provider) ||
      compare(a.model, b.model) ||
      compare(a.applicationId, b.applicationId),
  );
  for (let i = 0; i < days.length; i += ROWS_PER_UPSERT) out.push(rollupUpsert(DAILY_ROLLUP, days.slice(i, i + ROWS_PER_UPSERT)));
  const touches = [...batch.keyTouches].sort((a, b) => compare(a.keyId, b.keyId));
  for (let i = 0; i < touches.length; i += ROWS_PER_UPSERT) out.push(keyTouchUpdate(touches.slice(i, i + ROWS_PER_UPSERT)));
  return out;
}

function rollupUpsert<R>(table: RollupTable<R>, rows: R[]): Statement {
  return { text: table.upsert(placeholders(rows.length, table.columns.length)), params: rows.flatMap((r) => table.values(r)) };
}

function keyTouchUpdate(touches: KeyTouch[]): Statement {
  return {
    text: `UPDATE api_keys AS k SET request_count = k.request_count + t.requests, spent_micros = k.spent_micros + t.spend,
             last_used_at = CASE WHEN k.last_used_at IS NULL OR k.last_used_at < t.last_used THEN t.last_used ELSE k.last_used_at END
           FROM (VALUES ${placeholders(touches.length, 4, ["text", "bigint", "bigint", "bigint"])}) AS t(id, requests, spend, last_used)
           WHERE k.id = t.id`,
    params: touches.flatMap((t) => [t.keyId, t.requests, t.spendMicros, t.lastUsedAt]),
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
