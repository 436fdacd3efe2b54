/**
 * Delivery of spend settlements to Redis, off the request path: a reservation's
 * settlement is sent at once and queued again on any failure (SETTLE applies a marked
 * settlement once however often it arrives); uncapped calls' costs are summed over a
 * short window and sent together; what Redis could not take waits in memory, bounded,
 * and is sent again when it answers. An uncapped cost that waited while Redis restarted
 * (empty) is dropped: totals in the new Redis are read from the store, which the usage
 * flush brings that cost to, so adding it as well would count it twice.
 */
import type { RedisConnection } from "./redis-connection.ts";
import { RedisUnavailable } from "./redis-connection.ts";
import { SETTLE } from "./spend-scripts.ts";

/** Settlements kept while Redis is away; past this the oldest are dropped (and counted). */
const MAX_PENDING_SETTLEMENTS = 100_000;

export interface Settlement {
  keys: [string, string];
  args: (string | number)[];
  /** It settles a reservation (marked in Redis), so sending it twice applies it once. */
  idempotent: boolean;
  /**
   * The Redis data it was meant for (`gw:epoch`): a reservation's, from its reservation
   * (SETTLE adds its cost to totals reloaded since the data was lost); an uncapped cost's,
   * set when queued (it goes to no other data).
   */
  epoch?: string | null;
  /** Sent before (its answer lost, or it never left): SETTLE adds no cost to reloaded totals on a send again. */
  resent?: boolean;
}

export interface SpendSettlementsOptions {
  retryEveryMs?: number;
  /** How long uncapped calls' costs are gathered before they are sent together. */
  uncappedEveryMs?: number;
  /** The idle lifetime of the totals a settlement touches (spend-scripts.ts). */
  totalsTtlMs: number;
}

export class SpendSettlements {
  private pending: Settlement[] = [];
  private dropped = 0;
  private forgotten = 0;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timer: ReturnType<typeof setInterval>;
  /** Uncapped calls' costs not sent yet, summed per pair of totals and month. */
  private uncapped = new Map<string, { keys: [string, string]; month: string; micros: number }>();
  private uncappedTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly redis: RedisConnection,
    private readonly opts: SpendSettlementsOptions,
  ) {
    this.timer = setInterval(() => this.retry(), opts.retryEveryMs ?? 1000);
    this.timer.unref();
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  get droppedCount(): number {
    return this.dropped;
  }

  /** Uncapped costs not sent because Redis restarted while they waited (the store counts them). */
  get forgottenCount(): number {
    return this.forgotten;
  }

  /**
   * Fire and forget: the response never waits for it. A settlement of a reservation is
   * applied once however often it is sent, so any failure queues it again. An uncapped
   * call's cost carries no such mark: it is re-sent only when it surely never left (no
   * connection), never after a timeout that Redis may yet have answered.
   */
  send(s: Settlement): void {
    const args = [...s.args, s.idempotent ? (s.epoch ?? "") : "", s.resent ? 0 : 1];
    const sent = this.redis
      .eval(SETTLE, s.keys, args)
      .catch((err) => {
        if (s.idempotent || (err instanceof RedisUnavailable && err.neverSent)) this.queue(s);
      })
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  /**
   * An uncapped call's cost only keeps totals that Redis may hold up to date (for a cap
   * set later, or an organization's other keys): no decision waits for it, so the costs
   * of a short window go together, one command per pair of totals instead of one per call.
   */
  addUncapped(keys: [string, string], month: string, micros: number): void {
    const id = `${keys[0]} ${keys[1]} ${month}`;
    const sum = this.uncapped.get(id);
    if (sum) sum.micros += micros;
    else this.uncapped.set(id, { keys, month, micros });
    if (!this.uncappedTimer) {
      this.uncappedTimer = setTimeout(() => this.sendUncapped(), this.opts.uncappedEveryMs ?? 100);
      this.uncappedTimer.unref();
    }
  }

  /** At shutdown: sends what waits and lets what is on its way answer, once. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.sendUncapped();
    this.retry();
    await Promise.all([...this.inFlight]);
  }

  private sendUncapped(): void {
    if (this.uncappedTimer) clearTimeout(this.uncappedTimer);
    this.uncappedTimer = null;
    const sums = this.uncapped;
    this.uncapped = new Map();
    for (const s of sums.values())
      this.send({ keys: s.keys, args: [s.month, 0, s.micros, 0, 0, this.opts.totalsTtlMs, ""], idempotent: false });
  }

  private queue(s: Settlement): void {
    s.resent = true;
    if (!s.idempotent) s.epoch ??= this.redis.dataEpoch;
    this.pending.push(s);
    if (this.pending.length > MAX_PENDING_SETTLEMENTS) {
      this.pending.shift();
      this.dropped++;
    }
  }

  private retry(): void {
    if (this.pending.length === 0 || !this.redis.connected) return;
    const epoch = this.redis.dataEpoch;
    // Not yet known which Redis answers since the reconnect: an unmarked cost must not go to the wrong one.
    if (epoch === null && this.pending.some((s) => !s.idempotent && s.epoch)) return;
    const batch = this.pending;
    this.pending = [];
    // Sent in one tick: Bun pipelines them into one write.
    for (const s of batch) {
      if (!s.idempotent && s.epoch && s.epoch !== epoch) this.forgotten++;
      else this.send(s);
    }
  }
}
