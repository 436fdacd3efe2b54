/**
 * How many gateway nodes share this Redis: each node writes a heartbeat into one
 * sorted set every few seconds and counts the members seen recently. The count is
 * kept in memory, so when Redis goes away the rate limiter still knows how many ways
 * to divide the limit (the last count seen). A node that stops cleanly leaves at once;
 * a killed one drops out after `staleAfterMs`.
 *
 * Beats are stamped with Redis's clock, in one script: stamped with each node's own,
 * a node whose clock ran behind the others by more than the stale window was swept out
 * by their beats and never counted, so the fallback divided the limit by too few nodes.
 */
import { CLOCK_LUA, type RedisConnection, redisScript } from "./redis-connection.ts";

const NODES = "gw:nodes";

/** KEYS: the set. ARGV: node id, stale window ms. Beats, sweeps, counts: one round trip. */
const BEAT = redisScript(`${CLOCK_LUA}
local now = clock()
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])
`);

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

  async beat(): Promise<void> {
    try {
      this.known = Math.max(1, Number(await this.redis.eval(BEAT, [NODES], [this.nodeId, this.opts.staleAfterMs])));
    } catch {
      // Keep the last count: it is what the fallback divides by.
    }
  }

  async leave(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.send("ZREM", [NODES, this.nodeId]).catch(() => {});
  }
}
