import { describe, expect, test } from "bun:test";
import type { KeyPrincipal } from "../../src/domain/types.ts";
import { MemoryKeyCache } from "../../src/state/key-cache.ts";
import { timersArmedBy } from "../support/timers.ts";

const principal = (id: string) => ({ key: { id, revokedAt: null } }) as unknown as KeyPrincipal;

function cache(found: Record<string, KeyPrincipal>, opts: { ttlMs?: number; negativeTtlMs?: number } = {}) {
  const calls: string[] = [];
  const c = new MemoryKeyCache({
    ttlMs: opts.ttlMs ?? 60_000,
    negativeTtlMs: opts.negativeTtlMs,
    loader: async (h) => {
      calls.push(h);
      await Bun.sleep(5);
      return found[h] ?? null;
    },
  });
  return { c, calls };
}

describe("KeyCache", () => {
  test("the first get loads; later gets answer synchronously from memory", async () => {
    const { c, calls } = cache({ h1: principal("k1") });
    const first = c.get("h1");
    expect(first).toBeInstanceOf(Promise);
    expect((await first)?.key.id).toBe("k1");
    const second = c.get("h1");
    expect(second).not.toBeInstanceOf(Promise);
    expect((second as KeyPrincipal).key.id).toBe("k1");
    expect(calls).toEqual(["h1"]);
    expect(c.stats()).toEqual({ hits: 1, misses: 1, size: 1 });
  });

  test("concurrent misses share one load", async () => {
    const { c, calls } = cache({ h1: principal("k1") });
    const all = await Promise.all(Array.from({ length: 10 }, () => c.get("h1")));
    expect(all.every((p) => p?.key.id === "k1")).toBe(true);
    expect(calls).toHaveLength(1);
  });

  test("unknown hashes are cached briefly", async () => {
    const { c, calls } = cache({}, { negativeTtlMs: 30 });
    expect(await c.get("nope")).toBeNull();
    expect(c.get("nope")).toBeNull();
    expect(calls).toHaveLength(1);
    await Bun.sleep(40);
    expect(await c.get("nope")).toBeNull();
    expect(calls).toHaveLength(2);
  });

  test("evict forces the next get to reload", async () => {
    const found = { h1: principal("k1") };
    const { c, calls } = cache(found);
    await c.get("h1");
    found.h1 = principal("k1-changed");
    c.evict("h1");
    expect((await c.get("h1"))?.key.id).toBe("k1-changed");
    expect(calls).toHaveLength(2);
  });

  test("an eviction during a load is not undone by the load", async () => {
    const { c } = cache({ h1: principal("k1") });
    const loading = c.get("h1");
    c.evict("h1");
    await loading;
    expect(c.get("h1")).toBeInstanceOf(Promise);
  });

  test("a hit arms no timer: the entry's age is read from the clock", async () => {
    const { c } = cache({ h1: principal("k1") });
    await c.get("h1");
    expect(
      timersArmedBy(() => {
        for (let i = 0; i < 5; i++) c.get("h1");
      }),
    ).toBe(0);
  });
});
