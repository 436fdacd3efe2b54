/**
 * The shared rate limiter: every node's buckets are one hash each in Redis, taken by
 * one atomic script per request, so N nodes enforce one limit. The script keeps the
 * exact state the in-memory limiter keeps (tokens, refill clock, whole-second credits)
 * on Redis's clock, and the answer is turned into the same decision and headers.
 * When Redis cannot answer in time, buckets fall back to this node's memory with the
 * limit divided by the number of nodes last seen, so the cluster together stays near
 * the limit instead of multiplying it.
 */
import { bucketDecision, type BucketSnapshot, type RateDecision, type RateLimiter, TokenBucketLimiter } from "../rate-limiter.ts";
import type { CarriedTake, CarryingLimiter, DeferringLimiter } from "../rate-charge.ts";
import { DeferredCharge } from "../rate-charge.ts";
import type { RedisConnection } from "./redis-connection.ts";
import { redisScript } from "./redis-connection.ts";

/**
 * The take, as a Lua function other scripts include (the spend reservation carries it,
 * rate-charge.ts): the bucket's key; limit, tokens per second, window ms, now ms (or -1:
 * Redis's clock), then the bucket as this node last saw it (tokens, refill clock; "" for
 * a bucket it never saw or saw full). Returns {allowed 0/1, tokens as text (fractional),
 * refill clock ms, now ms}.
 *
 * A bucket Redis does not hold starts full, unless this node saw it: then it starts
 * where it was seen, refilled since. A bucket idle past its window is full again either
 * way; one lost with Redis's data (a restart without persistence, FLUSHALL) no longer
 * hands every caller a whole new window.
 */
export const TAKE_LUA = `
local function take(key, limit, per, window, now, seenTokens, seenAt)
  limit = tonumber(limit)
  per = tonumber(per)
  now = tonumber(now)
  if now < 0 then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  local eps = 1e-9
  local b = redis.call('HMGET', key, 't', 'u')
  if not b[1] and seenTokens and seenTokens ~= '' then b = {seenTokens, seenAt} end
  local tokens = limit
  local updated = now
  if b[1] then
    tokens = tonumber(b[1])
    -- Never ahead of this Redis's clock (one that took over from another host may run behind).
    updated = math.min(tonumber(b[2]), now)
    local seconds = math.floor((now - updated) / 1000)
    if seconds > 0 then
      tokens = math.min(limit, tokens + seconds * per)
      if tokens >= limit - eps then tokens = limit end
      if tokens == limit then updated = now else updated = updated + seconds * 1000 end
    end
  end
  local allowed = 0
  if tokens >= 1 - eps then
    tokens = math.max(0, tokens - 1)
    allowed = 1
  end
  local t = string.format('%.17g', tokens)
  redis.call('HSET', key, 't', t, 'u', string.format('%d', updated))
  redis.call('PEXPIRE', key, window)
  return {allowed, t, updated, now}
end
`;

/** KEYS[1] the bucket; ARGV the take's arguments after the key (see TAKE_LUA). */
const TAKE = redisScript(`${TAKE_LUA}
return take(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
`);

export interface RedisRateLimiterOptions {
  limit: number;
  windowS: number;
  /** Nodes sharing the limit, for the fallback's share. */
  nodes: () => number;
  /** A fixed clock for tests; absent, the script reads Redis's clock (one clock for every node). */
  now?: () => number;
  onFallback?: (err: unknown) => void;
}

export class RedisRateLimiter implements RateLimiter, CarryingLimiter, DeferringLimiter {
  private readonly perSecond: number;
  private fallback: { nodes: number; limiter: TokenBucketLimiter } | null = null;
  /** The last state seen per bucket, for `peek` (which must answer without a round trip). */
  private readonly seen: TokenBucketLimiter;

  constructor(
    private readonly redis: RedisConnection,
    private readonly opts: RedisRateLimiterOptions,
  ) {
    this.perSecond = opts.limit / opts.windowS;
    this.seen = new TokenBucketLimiter({ limit: opts.limit, windowS: opts.windowS, maxBuckets: 50_000, now: opts.now });
  }

  take(bucketKey: string): RateDecision | Promise<RateDecision> {
    if (!this.redis.connected) return this.local().take(bucketKey);
    const take = this.carried(bucketKey);
    return this.redis.eval(TAKE, [take.key], take.args).then(
      (answer) => take.answered(answer as unknown[]),
      (err) => take.failed(err),
    );
  }

  /**
   * The charge held back for the call's spend reservation to carry (one round trip for
   * both); null when it is taken now: Redis is away, or this bucket was last seen empty
   * (a caller over its limit is refused before its request is read, as without deferral).
   */
  defer(bucketKey: string): DeferredCharge | null {
    if (!this.redis.connected || this.seen.peek(bucketKey).remaining < 1) return null;
    return new DeferredCharge(this, bucketKey);
  }

  carried(bucketKey: string): CarriedTake {
    const seen = this.seen.stored(bucketKey);
    return {
      key: `gw:rl:${bucketKey}`,
      args: [
        this.opts.limit,
        this.perSecond,
        this.opts.windowS * 1000,
        this.opts.now ? this.opts.now() : -1,
        seen ? String(seen.tokens) : "",
        seen ? seen.updatedAt : "",
      ],
      answered: (answer) => {
        const [allowed, tokensText, updatedAt, at] = answer as [number, string, number, number];
        const tokens = Number(tokensText);
        this.seen.restore([{ key: bucketKey, tokens, updatedAt: Number(updatedAt) }]);
        return bucketDecision(this.opts.limit, this.perSecond, allowed === 1, tokens, Number(at), Number(updatedAt));
      },
      failed: (err) => {
        this.opts.onFallback?.(err);
        return this.local().take(bucketKey);
      },
    };
  }

  peek(bucketKey: string): RateDecision {
    return this.seen.peek(bucketKey);
  }

  /** Only the fallback's buckets live here; the shared ones stay in Redis across restarts. */
  snapshot(): BucketSnapshot[] {
    return [];
  }

  restore(_buckets: BucketSnapshot[]): void {}

  /** This node's share of the limit while Redis is away. */
  private local(): TokenBucketLimiter {
    const nodes = Math.max(1, this.opts.nodes());
    if (this.fallback?.nodes !== nodes) {
      const limit = Math.max(1, Math.floor(this.opts.limit / nodes));
      this.fallback = { nodes, limiter: new TokenBucketLimiter({ limit, windowS: this.opts.windowS, now: this.opts.now }) };
    }
    return this.fallback.limiter;
  }
}
