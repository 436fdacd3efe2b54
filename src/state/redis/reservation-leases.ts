/**
 * The leases of this node's reservations in Redis: each mark lapses a lease after it was
 * written or last renewed (on Redis's clock), and the next reservation on those totals
 * gives it back (spend-scripts.ts). While a call runs, however long (a stream has no end
 * the gateway sets: the provider and the client decide), its node renews the mark every
 * quarter lease, so only a node that stopped (killed, or cut off from Redis for a whole
 * lease) leaves a reservation to lapse. Most calls end before their first renewal and
 * cost one map entry.
 */
import type { RedisConnection } from "./redis-connection.ts";
import { RENEW } from "./spend-scripts.ts";

/** Long beside a call's Redis deadlines (a renewal lost to a slow Redis is retried a quarter lease later), short beside a day. */
export const RESERVATION_LEASE_MS = 60_000;

interface Held {
  keys: [string, string];
  onKey: 0 | 1;
  onOrg: 0 | 1;
  /** performance.now() when the mark was written or last renewed. */
  at: number;
}

export class ReservationLeases {
  private readonly held = new Map<string, Held>();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly every: number;

  constructor(
    private readonly redis: RedisConnection,
    readonly leaseMs: number = RESERVATION_LEASE_MS,
  ) {
    // A tick every quarter lease renews the marks written more than an eighth of a lease
    // before it: none goes unrenewed for more than 3/8 of its lease, whatever the timers' jitter.
    this.every = leaseMs / 4;
    this.timer = setInterval(() => this.renew(), this.every);
    this.timer.unref();
  }

  /** A reservation was written under `id`: renewed from now until `end`. */
  hold(id: string, keys: [string, string], onKey: boolean, onOrg: boolean): void {
    this.held.set(id, { keys, onKey: onKey ? 1 : 0, onOrg: onOrg ? 1 : 0, at: performance.now() });
  }

  /** Its call ended (settled or released): no more renewals. */
  end(id: string): void {
    this.held.delete(id);
  }

  /** Stops renewing (at shutdown, once every call has ended). */
  close(): void {
    clearInterval(this.timer);
  }

  /**
   * Fire and forget, one command a reservation held longer than half a period (Bun
   * pipelines those of one tick into one write). A failure is retried at the next tick;
   * a mark no longer held (swept while Redis was out of reach, or its totals evicted)
   * is not renewed again.
   */
  private renew(): void {
    const now = performance.now();
    for (const [id, h] of this.held) {
      if (now - h.at < this.every / 2) continue;
      h.at = now;
      this.redis.eval(RENEW, h.keys, [this.leaseMs, h.onKey, h.onOrg, id]).then(
        (held) => {
          if (held === 0) this.held.delete(id);
        },
        () => {},
      );
    }
  }
}
