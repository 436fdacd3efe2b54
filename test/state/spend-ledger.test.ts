import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { MemorySpendLedger } from "../../src/state/memory-spend-ledger.ts";
import { type Caps, monthOf, nextMonthStart } from "../../src/state/spend-ledger.ts";

const NOV = Date.UTC(2026, 10, 22, 12);
const caps = (over: Partial<Caps> = {}): Caps => ({
  keyId: "k1",
  orgId: "o1",
  keyLifetimeCents: null,
  keyMonthlyCents: null,
  orgMonthlyCents: null,
  ...over,
});

function ledger(stored = { lifetime: 0, month: 0, org: 0 }) {
  let now = NOV;
  const l = new MemorySpendLedger(
    { keyLifetimeMicros: async () => stored.lifetime, spentSince: async (_o, keyId) => (keyId ? stored.month : stored.org) },
    () => now,
  );
  return { l, setNow: (t: number) => (now = t) };
}

async function refusal(p: unknown): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error("expected a refusal");
}

describe("SpendLedger", () => {
  test("uncapped calls reserve nothing and never compute the estimate", () => {
    const { l } = ledger();
    let computed = false;
    const r = l.reserve(caps(), () => {
      computed = true;
      return 1;
    });
    expect(r).not.toBeInstanceOf(Promise);
    expect(computed).toBe(false);
  });

  test("a lifetime cap counts stored spend, reservations and settled costs", async () => {
    const { l } = ledger({ lifetime: 50_000, month: 0, org: 0 }); // 5 cents already spent
    const c = caps({ keyLifetimeCents: 10 });
    const a = await l.reserve(c, () => 30_000);
    const err = await refusal(l.reserve(c, () => 30_000));
    expect(err.status).toBe(429);
    expect(err.code).toBe("spend_cap_exceeded");
    expect(err.details).toEqual({ limit: 10, remaining: 2, resetAt: null });
    a.settle(10_000); // the call cost less than reserved
    await l.reserve(c, () => 30_000);
  });

  test("release gives the reservation back; settle and release are idempotent together", async () => {
    const { l } = ledger();
    const c = caps({ keyLifetimeCents: 1 });
    const a = await l.reserve(c, () => 10_000);
    a.release();
    a.settle(10_000); // ignored: already closed
    const b = await l.reserve(c, () => 10_000);
    b.settle(10_000);
    expect((await refusal(l.reserve(c, () => 1))).code).toBe("spend_cap_exceeded");
  });

  test("monthly caps reset at 00:00 UTC on the 1st, and say when", async () => {
    const { l, setNow } = ledger({ lifetime: 0, month: 90_000, org: 0 });
    const c = caps({ keyMonthlyCents: 10 });
    const err = await refusal(l.reserve(c, () => 20_000));
    expect(err.code).toBe("monthly_cap_exceeded");
    expect(err.details?.resetAt).toBe("2026-12-01T00:00:00.000Z");
    setNow(Date.UTC(2026, 11, 1, 0, 0, 0));
    expect(monthOf(Date.UTC(2026, 11, 1))).toBe("2026-12");
    (await l.reserve(c, () => 20_000)).settle(20_000);
    expect(nextMonthStart(Date.UTC(2026, 11, 31, 23, 59))).toBe(Date.UTC(2027, 0, 1));
  });

  test("the organization's monthly budget binds every key", async () => {
    const { l } = ledger({ lifetime: 0, month: 0, org: 95_000 });
    const err = await refusal(l.reserve(caps({ keyId: "other", orgMonthlyCents: 10 }), () => 10_000));
    expect(err.code).toBe("monthly_cap_exceeded");
    expect(err.message).toContain("organization");
  });

  test("concurrent reservations never pass a cap together", async () => {
    const { l } = ledger();
    const c = caps({ keyLifetimeCents: 10 });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => l.reserve(c, () => 7_000)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(14); // 14 x 7,000 = 98,000 <= 100,000
  });

  describe("totals stay current while no cap applies", () => {
    test("a key cap removed and set again sees the spend made in between", async () => {
      const { l } = ledger();
      const capped = caps({ keyLifetimeCents: 10 }); // 100,000 micros
      (await l.reserve(capped, () => 10_000)).settle(10_000); // loads the key's totals
      for (let i = 0; i < 8; i++) (l.reserve(caps(), () => 0) as { settle(n: number): void }).settle(10_000); // cap removed: 80,000 more
      // 90,000 spent: a 20,000 call no longer fits under the restored cap.
      const err = await refusal(l.reserve(capped, () => 20_000));
      expect(err.code).toBe("spend_cap_exceeded");
      expect(err.details).toMatchObject({ limit: 10, remaining: 1 });
      (await l.reserve(capped, () => 10_000)).settle(1);
    });

    test("an organization budget lifted and restored sees the spend made in between, by every key", async () => {
      const { l } = ledger();
      const budget = (keyId: string) => caps({ keyId, orgMonthlyCents: 10 });
      (await l.reserve(budget("a"), () => 1_000)).settle(1_000);
      (l.reserve(caps({ keyId: "a" }), () => 0) as { settle(n: number): void }).settle(50_000);
      (l.reserve(caps({ keyId: "b" }), () => 0) as { settle(n: number): void }).settle(40_000);
      const err = await refusal(l.reserve(budget("c"), () => 10_000));
      expect(err.code).toBe("monthly_cap_exceeded");
      expect(err.details).toMatchObject({ limit: 10, remaining: 0 });
    });

    test("a key only the organization budget binds still keeps the key's own totals current", async () => {
      const { l } = ledger();
      const keyCap = caps({ keyMonthlyCents: 10 });
      (await l.reserve(keyCap, () => 1_000)).settle(1_000);
      // The key's cap is removed while the organization has a budget: the org side is checked, the key side credited.
      (await l.reserve(caps({ orgMonthlyCents: 1_000 }), () => 1_000)).settle(95_000);
      expect((await refusal(l.reserve(keyCap, () => 10_000))).code).toBe("monthly_cap_exceeded");
    });

    test("spend settled while the totals are still loading is added once they arrive", async () => {
      let finishLoad: (n: number) => void = () => {};
      const l = new MemorySpendLedger(
        { keyLifetimeMicros: () => new Promise((r) => (finishLoad = r)), spentSince: async () => 0 },
        () => NOV,
      );
      const capped = caps({ keyLifetimeCents: 10 });
      const first = l.reserve(capped, () => 10_000); // starts the load
      (l.reserve(caps(), () => 0) as { settle(n: number): void }).settle(85_000); // an uncapped call settles meanwhile
      finishLoad(0);
      (await first).settle(0);
      expect((await refusal(l.reserve(capped, () => 20_000))).code).toBe("spend_cap_exceeded");
    });

    test("uncapped calls never read the store, and totals nobody loaded stay unloaded", async () => {
      let reads = 0;
      const l = new MemorySpendLedger({ keyLifetimeMicros: async () => (reads++, 0), spentSince: async () => (reads++, 0) }, () => NOV);
      for (let i = 0; i < 100; i++) {
        const r = l.reserve(caps({ keyId: `k${i}` }), () => 1);
        expect(r).not.toBeInstanceOf(Promise);
        (r as { settle(n: number): void }).settle(1_000);
      }
      expect(reads).toBe(0);
      // A cap set later loads from the store, which is where that spend is by then.
      await l.reserve(caps({ keyId: "k1", keyLifetimeCents: 1 }), () => 1);
      expect(reads).toBe(2);
    });
  });
});
