import { describe, expect, test } from "bun:test";
import { TokenBucketLimiter } from "../../src/state/rate-limiter.ts";
import { timersArmedBy } from "../support/timers.ts";

function limiter(limit = 10, windowS = 10) {
  let now = 1_000_000;
  const l = new TokenBucketLimiter({ limit, windowS, now: () => now });
  return { l, advance: (ms: number) => (now += ms), now: () => now };
}

describe("TokenBucketLimiter", () => {
  test("a burst of exactly `limit` is allowed, then refused with Retry-After", () => {
    const { l } = limiter(10, 10);
    for (let i = 9; i >= 0; i--) expect(l.take("k")).toMatchObject({ allowed: true, remaining: i, retryAfterS: 0 });
    const refused = l.take("k");
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterS).toBe(1);
  });

  test("tokens are credited at whole seconds, not mid-second", () => {
    const { l, advance } = limiter(10, 10); // 1 token a second
    for (let i = 0; i < 10; i++) l.take("k");
    advance(999);
    expect(l.take("k").allowed).toBe(false);
    advance(1);
    expect(l.take("k")).toMatchObject({ allowed: true, remaining: 0 });
    advance(2500);
    expect(l.take("k")).toMatchObject({ allowed: true, remaining: 1 });
  });

  test("Retry-After and reset follow the refill clock", () => {
    const { l, advance, now } = limiter(60, 60);
    for (let i = 0; i < 60; i++) l.take("k");
    advance(400);
    const d = l.take("k");
    expect(d.retryAfterS).toBe(1);
    expect(d.resetAtS).toBe(Math.ceil((now() - 400 + 60_000) / 1000));
  });

  test("slow refill rates accumulate fractions", () => {
    const { l, advance } = limiter(50, 3600); // one token every 72 s
    for (let i = 0; i < 50; i++) l.take("k");
    const refused = l.take("k");
    expect(refused.retryAfterS).toBe(72);
    advance(71_000);
    expect(l.take("k").allowed).toBe(false);
    advance(1_000);
    expect(l.take("k").allowed).toBe(true);
  });

  test("peek reports without consuming; unknown buckets are full", () => {
    const { l } = limiter(5, 5);
    expect(l.peek("fresh")).toMatchObject({ allowed: true, remaining: 5 });
    l.take("k");
    expect(l.peek("k").remaining).toBe(4);
    expect(l.peek("k").remaining).toBe(4);
  });

  test("buckets are independent", () => {
    const { l } = limiter(1, 60);
    expect(l.take("a").allowed).toBe(true);
    expect(l.take("a").allowed).toBe(false);
    expect(l.take("b").allowed).toBe(true);
  });

  test("an idle window drops the bucket, which is the same as a full one", () => {
    const { l, advance } = limiter(3, 10);
    l.take("k");
    advance(10_001);
    expect(l.snapshot()).toHaveLength(0);
    expect(l.take("k").remaining).toBe(2);
  });

  test("snapshot and restore keep the tokens; full buckets are not restored", () => {
    const a = limiter(100, 100);
    for (let i = 0; i < 30; i++) a.l.take("busy");
    a.l.take("light");
    const snap = a.l.snapshot();
    const b = new TokenBucketLimiter({ limit: 100, windowS: 100, now: () => a.now() + 500 });
    b.restore(snap);
    expect(b.peek("busy").remaining).toBe(70);
    const c = new TokenBucketLimiter({ limit: 100, windowS: 100, now: () => a.now() + 5_000 });
    c.restore(snap);
    expect(c.snapshot().map((s) => s.key)).toEqual(["busy"]);
  });

  test("a request arms no timer: the bucket's age is read from the clock", () => {
    const { l } = limiter();
    l.take("warm");
    expect(
      timersArmedBy(() => {
        for (let i = 0; i < 5; i++) l.take("warm");
        l.take("new");
      }),
    ).toBe(0);
  });
});
