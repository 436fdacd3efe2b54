/**
 * Request-rate limiting with token buckets held in memory. A bucket holds `limit`
 * tokens and refills at limit/window per second, credited in whole-second steps:
 * a burst of `limit` requests inside one second is never topped up mid-burst, so
 * request `limit + 1` is refused, and Retry-After (whole seconds) is exact.
 * Buckets live in an LRU whose TTL is the window: a bucket idle that long is full
 * again, so dropping it is exact, and memory stays bounded however many addresses call.
 */
import { LRUCache } from "lru-cache";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Unix seconds at which the bucket is full again. */
  resetAtS: number;
  /** 0 when allowed; else whole seconds until one token is back (at least 1). */
  retryAfterS: number;
}

export interface BucketSnapshot {
  key: string;
  tokens: number;
  updatedAt: number;
}

/** The in-memory limiter is synchronous; a shared (Redis) one answers with a promise. */
export interface RateLimiter {
  take(bucketKey: string): RateDecision | Promise<RateDecision>;
  peek(bucketKey: string): RateDecision;
  snapshot(): BucketSnapshot[];
  restore(buckets: BucketSnapshot[]): void;
}

/** Refill arithmetic is in fractional tokens; this absorbs float error (72 × 50/3600 = 0.99999…). */
const EPSILON = 1e-9;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface TokenBucketOptions {
  limit: number;
  windowS: number;
  maxBuckets?: number;
  now?: () => number;
}

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly limit: number;
  /** Tokens credited per whole second. */
  private readonly perSecond: number;
  private readonly now: () => number;

  constructor(opts: TokenBucketOptions) {
    this.limit = opts.limit;
    this.perSecond = opts.limit / opts.windowS;
    this.now = opts.now ?? Date.now;
    this.buckets = new LRUCache<string, Bucket>({
      max: opts.maxBuckets ?? 500_000,
      ttl: opts.windowS * 1000,
      updateAgeOnGet: true,
      // The clock read on each lookup, not cached behind a timer (see LoadingCache).
      ttlResolution: 0,
      perf: { now: this.now },
    });
  }

  take(bucketKey: string): RateDecision {
    const now = this.now();
    let b = this.buckets.get(bucketKey);
    if (b === undefined) {
      b = { tokens: this.limit, updatedAt: now };
      this.buckets.set(bucketKey, b);
    } else {
      this.refill(b, now);
    }
    if (b.tokens >= 1 - EPSILON) {
      b.tokens = Math.max(0, b.tokens - 1);
      return this.decision(true, b.tokens, now, b.updatedAt);
    }
    return this.decision(false, b.tokens, now, b.updatedAt);
  }

  peek(bucketKey: string): RateDecision {
    const now = this.now();
    const stored = this.buckets.peek(bucketKey);
    if (stored === undefined) return this.decision(true, this.limit, now);
    const b = { ...stored };
    this.refill(b, now);
    return this.decision(true, b.tokens, now, b.updatedAt);
  }

  /** One bucket as stored (tokens, refill clock), without refilling it; undefined when it is full. */
  stored(bucketKey: string): BucketSnapshot | undefined {
    const b = this.buckets.peek(bucketKey);
    return b && { key: bucketKey, tokens: b.tokens, updatedAt: b.updatedAt };
  }

  snapshot(): BucketSnapshot[] {
    const out: BucketSnapshot[] = [];
    for (const [key, b] of this.buckets.entries()) out.push({ key, tokens: b.tokens, updatedAt: b.updatedAt });
    return out;
  }

  restore(buckets: BucketSnapshot[]): void {
    const now = this.now();
    for (const s of buckets) {
      const b = { tokens: s.tokens, updatedAt: s.updatedAt };
      this.refill(b, now);
      // A bucket that is full again needs no entry: a missing bucket is a full one.
      if (b.tokens < this.limit) this.buckets.set(s.key, b);
    }
  }

  /** Credits whole seconds elapsed since `updatedAt`; a full bucket restarts its clock. */
  private refill(b: Bucket, now: number): void {
    const seconds = Math.floor((now - b.updatedAt) / 1000);
    if (seconds <= 0) return;
    b.tokens = Math.min(this.limit, b.tokens + seconds * this.perSecond);
    if (b.tokens >= this.limit - EPSILON) b.tokens = this.limit;
    b.updatedAt = b.tokens === this.limit ? now : b.updatedAt + seconds * 1000;
  }

  private decision(allowed: boolean, tokens: number, now: number, updatedAt = now): RateDecision {
    return bucketDecision(this.limit, this.perSecond, allowed, tokens, now, updatedAt);
  }
}

/**
 * What a bucket's state means for the caller (and its headers). `updatedAt` is the
 * bucket's refill clock: credits land on whole seconds after it. Shared with the Redis
 * limiter, whose script keeps the same state, so both answer with the same headers.
 */
export function bucketDecision(
  limit: number,
  perSecond: number,
  allowed: boolean,
  tokens: number,
  now: number,
  updatedAt = now,
): RateDecision {
  // Unix seconds at which `needed` more tokens will have been credited.
  const creditedBy = (needed: number) => (updatedAt + Math.ceil(needed / perSecond - EPSILON) * 1000) / 1000;
  return {
    allowed,
    limit,
    remaining: Math.floor(tokens + EPSILON),
    resetAtS: tokens >= limit ? Math.ceil(now / 1000) : Math.ceil(creditedBy(limit - tokens)),
    retryAfterS: allowed ? 0 : Math.max(1, Math.ceil(creditedBy(1 - tokens) - now / 1000)),
  };
}
