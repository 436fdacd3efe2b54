import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { type Caps, monthOf, nextMonthStart, SpendLedger } from "../../src/state/spend-ledger.ts";

const NOV = Date.UTC(2026, 10, 22, 12);
const caps = (over: Partial<Caps> = {}): Caps => ({ keyId: "k1", orgId: "o1", keyLifetimeCents: null, keyMonthlyCents: null, orgMonthlyCents: null, ...over });

function ledger(stored = { lifetime: 0, month: 0, org: 0 }) {
  let now = NOV;
  const l = new SpendLedger({ keyLifetimeMicros: async () => stored.lifetime, spentSince: async (_o, keyId) => (keyId ? stored.month : stored.org) }, () => now);
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
});
