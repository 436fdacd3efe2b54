/**
 * The write-behind buffer: usage events and per-key counters (requests, spend,
 * last use) collect in memory and reach the store every interval, or sooner when enough
 * events wait, each batch one transaction of a bounded size (flush-parts.ts: an outage's
 * backlog is several, not one too long for the store's bound). Requests never await the disk. A write
 * that fails for a passing reason (busy, the database away) is retried whole, before
 * anything newer, so nothing is lost or written twice (each batch carries its own id,
 * which the store records with it: it skips a batch it already holds). A batch whose rows
 * the store refuses (RowsRefused) is split in halves until the good rows are written and
 * the refused ones alone are set aside, so one bad row cannot block every later flush.
 */
import type { FlushBatch, KeyTouch, UsageEvent } from "../domain/types.ts";
import { RowsRefused } from "../store/rows-refused.ts";
import { boundedBatches, MAX_BATCH_ROWS, splitRefused } from "./flush-parts.ts";

/** At most how often a store that keeps refusing writes is reported again (the first failure is reported at once). */
export const FAILURE_REPORT_MS = 60_000;

/**
 * What the operator is told of a store that refuses writes: a full disk fails every
 * interval (four times a second), on what may be the log's own disk, so one line per
 * failure would bury the rest and fill it further.
 */
export interface FlushReport {
  /** The first failure, then at most once per FAILURE_REPORT_MS: `failures` since the last report (the first: 1). */
  failing(err: unknown, batch: FlushBatch, failures: number): void;
  /** The first whole flush after failures: how many there were in all, and how long since the first. */
  recovered(failures: number, downMs: number): void;
}

export interface UsageBufferOptions {
  write: (batch: FlushBatch) => Promise<void>;
  intervalMs: number;
  maxEvents: number;
  now?: () => number;
  /** Every failed write, as it happens (tests; the operator's log takes `report`). */
  onError?: (err: unknown, batch: FlushBatch) => void;
  report?: FlushReport;
  /** Rows the store refused for good, set aside (never written): what to log of them is the caller's choice. */
  onRefused?: (refused: FlushBatch, err: RowsRefused) => void;
  /** Events kept while the store cannot be written; past this the oldest are dropped (key counters are kept). */
  maxPending?: number;
  /** The most rows (events and key counters) one batch holds (MAX_BATCH_ROWS; tests set fewer). */
  maxBatchRows?: number;
}

export interface UsageBufferStats {
  pending: number;
  lastFlushAt: number | null;
  lastFlushDurationMs: number;
  /** Age of the oldest event or counter not yet in the store; 0 when none waits. */
  flushLagMs: number;
  flushedEvents: number;
  failures: number;
  /** Events dropped because the store stayed unwritable past `maxPending`. */
  droppedEvents: number;
  /** Events the store refused for good (RowsRefused), set aside so the rest could be written. */
  refusedEvents: number;
}

export class UsageBuffer {
  private events: UsageEvent[] = [];
  private touches = new Map<string, KeyTouch>();
  private oldestPendingAt: number | null = null;
  /**
   * Batches (or parts of one being split) whose write failed for a passing reason, oldest
   * first, written before anything newer. Each is kept as it was sent, under its id, never
   * merged: the store tells a batch it already holds by that id.
   */
  private retry: FlushBatch[] = [];
  private retryOldestAt: number | null = null;
  private inFlight: Promise<boolean> | null = null;
  /** While writes fail: since when, when last reported, failures since then and in all. */
  private outage: { since: number; reportedAt: number; unreported: number; failures: number } | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  private readonly s = {
    lastFlushAt: null as number | null,
    lastFlushDurationMs: 0,
    flushedEvents: 0,
    failures: 0,
    droppedEvents: 0,
    refusedEvents: 0,
  };

  constructor(private readonly opts: UsageBufferOptions) {
    this.now = opts.now ?? Date.now;
    this.timer = setInterval(() => void this.flushOnce(), opts.intervalMs);
    this.timer.unref();
  }

  /** One model call: its event, and its spend on the key (its request was counted by `touch` at admission). */
  record(event: UsageEvent, spendMicros = event.costMicros): void {
    this.events.push(event);
    this.touchKey(event.keyId, event.createdAt, spendMicros, 0);
    if (this.events.length >= this.opts.maxEvents) void this.flushOnce();
  }

  /** Records and resolves once the event is in the store (GW_DURABILITY=strict). */
  async recordStrict(event: UsageEvent, spendMicros = event.costMicros): Promise<void> {
    this.record(event, spendMicros);
    await this.flush();
  }

  /** A key was used (any authenticated request): requestCount and lastUsed. */
  touch(keyId: string): void {
    this.touchKey(keyId, this.now(), 0, 1);
  }

  private touchKey(keyId: string | null, at: number, spendMicros: number, requests: number): void {
    this.oldestPendingAt ??= this.now();
    if (keyId === null) return;
    const t = this.touches.get(keyId);
    if (t) {
      t.requests += requests;
      t.spendMicros += spendMicros;
      if (at > t.lastUsedAt) t.lastUsedAt = at;
    } else {
      this.touches.set(keyId, { keyId, lastUsedAt: at, requests, spendMicros });
    }
  }

  /** Writes everything pending, including what arrives while a flush runs. */
  async flush(): Promise<void> {
    for (;;) {
      if (this.inFlight) await this.inFlight;
      if (this.idle()) return;
      if (!(await this.flushOnce())) return;
    }
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  stats(): UsageBufferStats {
    let pending = this.events.length;
    for (const b of this.retry) pending += b.events.length;
    const oldest = this.retryOldestAt ?? this.oldestPendingAt;
    return { pending, ...this.s, flushLagMs: oldest === null ? 0 : this.now() - oldest };
  }

  private idle(): boolean {
    return this.retry.length === 0 && this.events.length === 0 && this.touches.size === 0;
  }

  /** Starts one flush unless one runs: the batches to retry if any, else what is pending. Resolves true when all of it was written. */
  private flushOnce(): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    if (this.idle()) return Promise.resolve(true);
    let parts: FlushBatch[];
    let oldest: number | null;
    if (this.retry.length > 0) {
      parts = this.retry;
      oldest = this.retryOldestAt;
      this.retry = [];
      this.retryOldestAt = null;
    } else {
      // Cut to the bound before any is sent: a backlog in one transaction could outlast the
      // store's time bound on every try, and a batch once sent is never cut again.
      parts = boundedBatches(this.events, [...this.touches.values()], this.opts.maxBatchRows ?? MAX_BATCH_ROWS);
      oldest = this.oldestPendingAt;
      this.events = [];
      this.touches = new Map();
      this.oldestPendingAt = null;
    }
    this.inFlight = this.writeParts(parts, oldest).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /**
   * Writes `parts` in order. A part the store refuses is split and its halves written in
   * its place, down to single rows, which are set aside; a passing failure stops, and the
   * part that failed and those after it are kept, each whole, to be retried first.
   */
  private async writeParts(parts: FlushBatch[], oldest: number | null): Promise<boolean> {
    const started = this.now();
    while (parts.length > 0) {
      const part = parts[0] as FlushBatch;
      try {
        await this.opts.write(part);
        parts.shift();
        this.s.flushedEvents += part.events.length;
      } catch (err) {
        if (!(err instanceof RowsRefused)) {
          this.s.failures++;
          this.keepForRetry(parts, oldest);
          this.opts.onError?.(err, part);
          this.reportFailure(err, part);
          return false;
        }
        parts.shift();
        const halves = splitRefused(part);
        if (halves) parts.unshift(...halves);
        else {
          this.s.refusedEvents += part.events.length;
          this.opts.onRefused?.(part, err);
        }
      }
    }
    this.s.lastFlushAt = this.now();
    this.s.lastFlushDurationMs = this.s.lastFlushAt - started;
    if (this.outage) {
      this.opts.report?.recovered(this.outage.failures, this.s.lastFlushAt - this.outage.since);
      this.outage = null;
    }
    return true;
  }

  /** The first failure at once; later ones counted, and reported with their count at most once per FAILURE_REPORT_MS. */
  private reportFailure(err: unknown, part: FlushBatch): void {
    const now = this.now();
    const o = this.outage;
    if (!o) {
      this.outage = { since: now, reportedAt: now, unreported: 0, failures: 1 };
      this.opts.report?.failing(err, part, 1);
      return;
    }
    o.failures++;
    o.unreported++;
    if (now - o.reportedAt < FAILURE_REPORT_MS) return;
    this.opts.report?.failing(err, part, o.unreported);
    o.reportedAt = now;
    o.unreported = 0;
  }

  /** Keeps the unwritten parts to be retried first; past `maxPending` events held, the oldest events are dropped (key counters are kept). */
  private keepForRetry(parts: FlushBatch[], oldest: number | null): void {
    this.retry = parts;
    this.retryOldestAt = oldest;
    let over = this.stats().pending - (this.opts.maxPending ?? Number.POSITIVE_INFINITY);
    for (const part of parts) {
      if (over <= 0) break;
      const n = Math.min(over, part.events.length);
      // A copy: the part's array may be the one a caller handed over. The id stays: if the
      // part was stored after all the store still skips it, and if not, the rest is written.
      part.events = part.events.slice(n);
      this.s.droppedEvents += n;
      over -= n;
    }
    if (over > 0) {
      this.events.splice(0, over);
      this.s.droppedEvents += over;
    }
    this.retry = parts.filter((p) => p.events.length > 0 || p.keyTouches.length > 0);
    if (this.retry.length === 0) this.retryOldestAt = null;
  }
}
