/**
 * Which node runs a periodic job (the hourly housekeeping) this time: every node's timer
 * fires, and the first to set the job's key in Redis for the period runs it; the others
 * skip. The key lapses with the period, so a node that died holding it does not stop
 * the next run. Redis away: the node runs the job (it is idempotent; skipping it on every
 * node would let tables grow).
 */
import type { RedisConnection } from "./redis-connection.ts";

export class JobClaims {
  constructor(
    private readonly redis: RedisConnection,
    private readonly nodeId: string,
  ) {}

  /** True when this node should run `job` now: it claimed it for `forMs`, or Redis could not say. */
  async claim(job: string, forMs: number): Promise<boolean> {
    try {
      const set = await this.redis.send("SET", [`gw:job:${job}`, this.nodeId, "NX", "PX", String(Math.max(1, Math.floor(forMs)))]);
      return set === "OK";
    } catch {
      return true;
    }
  }
}
