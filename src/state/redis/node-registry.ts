/**
 * How many gateway nodes share this Redis: each node writes a heartbeat into one
 * sorted set every few seconds and counts the members seen recently. The count is
 * kept in memory, so when Redis goes away the rate limiter still knows how many ways
 * to divide the limit (the last count seen). A node that stops cleanly leaves at once;
 * a killed one drops out after `staleAfterMs`.
 */
import type { RedisConnection } from "./redis-connection.ts";

const NODES = "gw:nodes";

export class NodeRegistry {
  private known = 1;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly redis: RedisConnection,
    readonly nodeId: string,
    private readonly opts: { everyMs: number; staleAfterMs: number } = { everyMs: 5_000, staleAfterMs: 15_000 },
  ) {
    this.timer = setInterval(() => void this.beat(), opts.everyMs);
    this.timer.unref();
  }

  /** Nodes seen within the stale window, this one included (at least 1). */
  count(): number {
    return this.known;
  }

  async beat(now = Date.now()): Promise<void> {
    try {
      await this.redis.send("ZADD", [NODES, String(now), this.nodeId]);
      await this.redis.send("ZREMRANGEBYSCORE", [NODES, "-inf", String(now - this.opts.staleAfterMs)]);
      this.known = Math.max(1, Number(await this.redis.send("ZCARD", [NODES])));
    } catch {
      // Keep the last count: it is what the fallback divides by.
    }
  }

  async leave(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.send("ZREM", [NODES, this.nodeId]).catch(() => {});
  }
}
