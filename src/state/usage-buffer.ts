/**
 * The write-behind buffer: usage events and per-key counters (requests, spend,
 * last use) collect in memory and reach the store in one transaction every
 * interval, or sooner when enough events wait. Requests never await the disk. A
 * failed write puts the batch back in front, so nothing is lost or written twice.
 */
import type { FlushBatch, KeyTouch, UsageEvent } from "../domain/types.ts";

export interface UsageBufferOptions {
  write: (batch: FlushBatch) => Promise<void>;
  intervalMs: number;
  maxEvents: number;
  now?: () => number;
  onError?: (err: unknown, batch: FlushBatch) => void;
  /** Events kept while the store cannot be written; past this the oldest are dropped (key counters are kept). */
  maxPending?: number;
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
}

export class UsageBuffer {
  private events: UsageEvent[] = [];
  private touches = new Map<string, KeyTouch>();
  private oldestPendingAt: number | null = null;
  private inFlight: Promise<boolean> | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  private readonly s = { lastFlushAt: null as number | null, lastFlushDurationMs: 0, flushedEvents: 0, failures: 0, droppedEvents: 0 };

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
      if (this.events.length === 0 && this.touches.size === 0) return;
      if (!(await this.flushOnce())) return;
    }
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  stats(): UsageBufferStats {
    return {
      pending: this.events.length,
      ...this.s,
      flushLagMs: this.oldestPendingAt === null ? 0 : this.now() - this.oldestPendingAt,
    };
  }

  /** Starts one flush unless one runs; resolves true when the batch was written. */
  private flushOnce(): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    if (this.events.length === 0 && this.touches.size === 0) return Promise.resolve(true);
    const batch: FlushBatch = { events: this.events, keyTouches: [...this.touches.values()] };
    const oldest = this.oldestPendingAt;
    this.events = [];
    this.touches = new Map();
    this.oldestPendingAt = null;
    const started = this.now();
    this.inFlight = this.opts
      .write(batch)
      .then(() => {
        this.s.lastFlushAt = this.now();
        this.s.lastFlushDurationMs = this.s.lastFlushAt - started;
        this.s.flushedEvents += batch.events.length;
        return true;
      })
      .catch((err) => {
        this.s.failures++;
        this.requeue(batch, oldest);
        this.opts.onError?.(err, batch);
        return false;
      })
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  /** Puts a failed batch back in front of whatever arrived meanwhile. */
  private requeue(batch: FlushBatch, oldest: number | null): void {
    this.events = batch.events.concat(this.events);
    const over = this.events.length - (this.opts.maxPending ?? Number.POSITIVE_INFINITY);
    if (over > 0) {
      this.events.splice(0, over);
      this.s.droppedEvents += over;
    }
    const merged = new Map<string, KeyTouch>();
    for (const t of batch.keyTouches) merged.set(t.keyId, { ...t });
    for (const t of this.touches.values()) {
      const m = merged.get(t.keyId);
      if (m) {
        m.requests += t.requests;
        m.spendMicros += t.spendMicros;
        m.lastUsedAt = Math.max(m.lastUsedAt, t.lastUsedAt);
      } else merged.set(t.keyId, t);
    }
    this.touches = merged;
    this.oldestPendingAt = oldest ?? this.oldestPendingAt;
  }
}
