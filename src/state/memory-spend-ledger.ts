/**
 * Spend caps in memory. Check and reserve happen without an await between them, so
 * concurrent calls can never together pass a cap. Totals are loaded from the store
 * once per key and organization, then kept here (they include spend not yet flushed).
 * Once loaded, totals follow every call of that key or organization, capped or not: a
 * cap that is removed and set again (or a budget lifted and restored) must see the
 * spend made in between. Uncapped calls do that in memory only, and only for totals
 * already held; they never load anything.
 */
import {
  assertWithinCap,
  type Caps,
  monthOf,
  monthStart,
  nextMonthStart,
  type Reservation,
  type SpendLedger,
  type SpendStore,
} from "./spend-ledger.ts";

interface Totals {
  month: string;
  monthMicros: number;
  lifetimeMicros: number;
  reservedMicros: number;
}

export class MemorySpendLedger implements SpendLedger {
  private readonly keys = new Map<string, Promise<Totals> | Totals>();
  private readonly orgs = new Map<string, Promise<Totals> | Totals>();

  constructor(
    private readonly store: SpendStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Reserves the call's maximum cost against every cap in `caps`, or throws 429.
   * The estimate is computed only when some cap applies (uncapped calls pay nothing
   * but a map lookup when they settle).
   */
  reserve(caps: Caps, estimate: () => number): Reservation | Promise<Reservation> {
    const keyCapped = caps.keyId !== null && (caps.keyLifetimeCents !== null || caps.keyMonthlyCents !== null);
    const orgCapped = caps.orgMonthlyCents !== null;
    if (!keyCapped && !orgCapped) return this.untracked(caps);
    const estimateMicros = estimate();
    return Promise.all([
      keyCapped ? this.totals(this.keys, caps.keyId as string, () => this.loadKey(caps)) : null,
      orgCapped ? this.totals(this.orgs, caps.orgId, () => this.loadOrg(caps.orgId)) : null,
    ]).then(([key, org]) => this.take(caps, key, org, estimateMicros));
  }

  private take(caps: Caps, key: Totals | null, org: Totals | null, estimate: number): Reservation {
    const now = this.now();
    for (const t of [key, org]) if (t) this.roll(t, now);
    if (key && caps.keyLifetimeCents !== null)
      assertWithinCap(
        caps.keyLifetimeCents,
        key.lifetimeMicros + key.reservedMicros,
        estimate,
        "spend_cap_exceeded",
        "this key's spend cap",
        null,
      );
    if (key && caps.keyMonthlyCents !== null)
      assertWithinCap(
        caps.keyMonthlyCents,
        key.monthMicros + key.reservedMicros,
        estimate,
        "monthly_cap_exceeded",
        "this key's monthly cap",
        nextMonthStart(now),
      );
    if (org && caps.orgMonthlyCents !== null)
      assertWithinCap(
        caps.orgMonthlyCents,
        org.monthMicros + org.reservedMicros,
        estimate,
        "monthly_cap_exceeded",
        "the organization's monthly budget",
        nextMonthStart(now),
      );
    for (const t of [key, org]) if (t) t.reservedMicros += estimate;
    let open = true;
    const close = (actual: number) => {
      if (!open) return;
      open = false;
      for (const t of [key, org]) {
        if (!t) continue;
        t.reservedMicros -= estimate;
        this.add(t, actual);
      }
      // The side without a cap on this call still keeps its totals current, if it has any.
      if (!key && caps.keyId !== null) this.credit(this.keys, caps.keyId, actual);
      if (!org) this.credit(this.orgs, caps.orgId, actual);
    };
    return { settle: (actual) => close(actual), release: () => close(0) };
  }

  /** A call no cap applies to: nothing to check or reserve; its cost still reaches totals already in memory. */
  private untracked(caps: Caps): Reservation {
    return new Untracked(this, caps);
  }

  /** Spend of an uncapped call, added to totals already in memory (a capped one may read them later). */
  creditUncapped(caps: Caps, actual: number): void {
    if (caps.keyId !== null) this.credit(this.keys, caps.keyId, actual);
    this.credit(this.orgs, caps.orgId, actual);
  }

  /**
   * Adds spend to totals held in memory; never loads. Totals still loading get it once
   * loaded: the store was read when the load started (bun:sqlite reads synchronously),
   * before this call settled, so the load cannot already contain it.
   */
  private credit(map: Map<string, Promise<Totals> | Totals>, id: string, actual: number): void {
    if (actual <= 0) return;
    const known = map.get(id);
    if (!known) return;
    if (known instanceof Promise) {
      known.then(
        (t) => this.add(t, actual),
        () => {}, // a failed load is dropped; the next capped call loads again from the store
      );
    } else this.add(known, actual);
  }

  private add(t: Totals, actual: number): void {
    this.roll(t, this.now());
    t.monthMicros += actual;
    t.lifetimeMicros += actual;
  }

  private roll(t: Totals, now: number): void {
    const month = monthOf(now);
    if (t.month !== month) {
      t.month = month;
      t.monthMicros = 0;
    }
  }

  private totals(map: Map<string, Promise<Totals> | Totals>, id: string, load: () => Promise<Totals>): Totals | Promise<Totals> {
    const known = map.get(id);
    if (known) return known;
    const loading = load().then((t) => {
      map.set(id, t);
      return t;
    });
    loading.catch(() => map.delete(id));
    map.set(id, loading);
    return loading;
  }

  private async loadKey(caps: Caps): Promise<Totals> {
    const now = this.now();
    const keyId = caps.keyId as string;
    const [lifetimeMicros, monthMicros] = await Promise.all([
      this.store.keyLifetimeMicros(keyId),
      this.store.spentSince(caps.orgId, keyId, monthStart(now)),
    ]);
    return { month: monthOf(now), monthMicros, lifetimeMicros, reservedMicros: 0 };
  }

  private async loadOrg(orgId: string): Promise<Totals> {
    const now = this.now();
    return {
      month: monthOf(now),
      monthMicros: await this.store.spentSince(orgId, null, monthStart(now)),
      lifetimeMicros: 0,
      reservedMicros: 0,
    };
  }
}

/**
 * An uncapped call's reservation: nothing held, its spend credited once settled. One
 * object a call, where a literal with two closures cost four (every uncapped call has one).
 */
class Untracked implements Reservation {
  private open = true;

  constructor(
    private readonly ledger: MemorySpendLedger,
    private readonly caps: Caps,
  ) {}

  settle(actual: number): void {
    if (!this.open) return;
    this.open = false;
    if (actual > 0) this.ledger.creditUncapped(this.caps, actual);
  }

  release(): void {
    this.open = false;
  }
}
