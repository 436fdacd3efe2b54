/**
 * Spend caps shared by every node: the per-key (lifetime and monthly) and
 * per-organization (monthly) totals and reservations live in Redis, and one atomic
 * script checks every cap and reserves the estimate (spend-scripts.ts), so N nodes
 * overshoot a cap by no more than one node would: the estimate error of the calls in
 * flight. Totals are read from the store the first time any node needs them.
 *
 * Redis down or slow: a capped call is refused with 503 service_unavailable (fail
 * closed), unless the operator chose GW_SPEND_FAIL_OPEN, in which case this node's
 * in-memory ledger decides alone. Settlements that cannot reach Redis wait in memory
 * and are sent when it answers again (spend-settlements.ts), so a reservation is never
 * left held. A node that dies mid-call cannot settle: its reservations lapse a lease
 * later, as it stops renewing them (reservation-leases.ts), and the next reservation on
 * those totals gives them back.
 */
import { ApiError } from "../../lib/errors.ts";
import {
  assertWithinCap,
  type Caps,
  MICROS_PER_CENT,
  monthOf,
  monthStart,
  nextMonthStart,
  type Reservation,
  type SpendLedger,
  type SpendStore,
} from "../spend-ledger.ts";
import { type RedisConnection, RedisUnavailable } from "./redis-connection.ts";
import type { Carried, DeferredCharge } from "../rate-charge.ts";
import { LOAD, RESERVE, RESERVE_TAKING } from "./spend-scripts.ts";
import { ReservationLeases } from "./reservation-leases.ts";
import { SpendSettlements } from "./spend-settlements.ts";

/** Totals idle this long leave Redis; the next capped call reads them from the store again. */
const TOTALS_TTL_MS = 24 * 3_600_000;
/** A call refused by the rate-limit take its reservation carried: nothing was reserved. */
const NOTHING_RESERVED: Reservation = { settle: () => {}, release: () => {} };
export interface RedisSpendLedgerOptions {
  /** Let calls through on this node's own ledger when Redis cannot answer. */
  failOpen: boolean;
  /** This node's in-memory ledger: the fail-open fallback. */
  local: Pick<SpendLedger, "reserve">;
  now?: () => number;
  retryEveryMs?: number;
  /** How long uncapped calls' costs are gathered before they are sent together. */
  uncappedEveryMs?: number;
  /** Told why a capped call could not be checked (for the log; the caller only sees 503). */
  onUnavailable?: (err: RedisUnavailable) => void;
  /** How long a reservation's mark outlives its node's last renewal (RESERVATION_LEASE_MS). */
  leaseMs?: number;
}

export class RedisSpendLedger implements Pick<SpendLedger, "reserve"> {
  private readonly now: () => number;
  private readonly settlements: SpendSettlements;
  private readonly leases: ReservationLeases;
  /** Lapsed reservations (other nodes', or this one's while Redis was out of reach) that this node's reservations gave back. */
  private expired = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly store: SpendStore,
    private readonly opts: RedisSpendLedgerOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.settlements = new SpendSettlements(redis, {
      retryEveryMs: opts.retryEveryMs,
      uncappedEveryMs: opts.uncappedEveryMs,
      totalsTtlMs: TOTALS_TTL_MS,
    });
    this.leases = new ReservationLeases(redis, opts.leaseMs);
  }

  /**
   * `charge`: the request's rate-limit charge, still pending, which a capped call's
   * reservation carries in its own command (one round trip for both); when the take is
   * refused nothing is reserved, and the charge's decision says so.
   */
  reserve(caps: Caps, estimate: () => number, charge?: DeferredCharge): Reservation | Promise<Reservation> {
    const keyCapped = caps.keyId !== null && (caps.keyLifetimeCents !== null || caps.keyMonthlyCents !== null);
    const orgCapped = caps.orgMonthlyCents !== null;
    // Uncapped: nothing to check; the cost still reaches totals Redis holds, after the call.
    if (!keyCapped && !orgCapped) return this.reservation(caps, 0, false, false, "");
    const estimateMicros = Math.ceil(estimate());
    return this.reserveShared(caps, estimateMicros, keyCapped, orgCapped, charge?.carry() ?? null).catch((err) => {
      if (!(err instanceof RedisUnavailable)) throw err;
      this.opts.onUnavailable?.(err);
      if (this.opts.failOpen) return this.opts.local.reserve(caps, () => estimateMicros);
      throw new ApiError(
        503,
        "service_unavailable",
        "Spend caps are checked in the gateway's shared state (Redis), which is not answering; the call was not sent to the provider. Retry shortly.",
        {
          headers: { "retry-after": "1" },
        },
      );
    });
  }

  /** Settlements waiting for Redis, those dropped because too many waited or Redis restarted meanwhile, and lapsed reservations given back. */
  stats(): { pendingSettlements: number; droppedSettlements: number; forgottenSettlements: number; expiredReservations: number } {
    return {
      pendingSettlements: this.settlements.pendingCount,
      droppedSettlements: this.settlements.droppedCount,
      forgottenSettlements: this.settlements.forgottenCount,
      expiredReservations: this.expired,
    };
  }

  /** At shutdown: sends what waits and lets what is on its way answer, once. */
  async close(): Promise<void> {
    this.leases.close();
    await this.settlements.close();
  }

  private async reserveShared(
    caps: Caps,
    estimate: number,
    keyCapped: boolean,
    orgCapped: boolean,
    carried: Carried | null,
  ): Promise<Reservation> {
    const now = this.now();
    const keys = this.hashes(caps);
    const cap = (cents: number | null) => (cents === null ? -1 : cents * MICROS_PER_CENT);
    // At most two loads: the key's totals, then the organization's.
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = crypto.randomUUID();
      const args = [
        monthOf(now),
        estimate,
        keyCapped ? cap(caps.keyLifetimeCents) : -1,
        keyCapped ? cap(caps.keyMonthlyCents) : -1,
        cap(caps.orgMonthlyCents),
        keyCapped ? 1 : 0,
        orgCapped ? 1 : 0,
        TOTALS_TTL_MS,
        id,
        this.leases.leaseMs,
      ];
      // The first command carries the rate-limit take, if it is still to be taken; a retry after a load does not take again.
      const take = carried;
      carried = null;
      const sent = take
        ? this.redis.eval(RESERVE_TAKING, [...keys, take.key], [...args, ...take.args])
        : this.redis.eval(RESERVE, keys, args);
      let answer = (await sent.catch((err) => {
        take?.settle(take.failed(err));
        // Timed out, but Redis may still run it: release it after, by its id (a no-op if it never ran).
        if (err instanceof RedisUnavailable && !err.neverSent) this.reservation(caps, estimate, keyCapped, orgCapped, id).release();
        throw err;
      })) as unknown[];
      if (take) {
        const decision = this.decided(take, answer);
        if (!decision.allowed) return NOTHING_RESERVED;
        answer = answer.slice(4);
      }
      this.expired += Number(answer[3]);
      if (answer[0] === "ok") {
        this.leases.hold(id, keys, keyCapped, orgCapped);
        return this.reservation(caps, estimate, keyCapped, orgCapped, id, String(answer[1] ?? ""));
      }
      if (answer[0] === "load") {
        await this.load(caps, answer[1] === "key" ? "key" : "org", now);
        continue;
      }
      // The script found a cap passed: the same check here throws the same 429 one node would.
      const used = Number(answer[2]);
      if (answer[1] === "lifetime")
        assertWithinCap(caps.keyLifetimeCents as number, used, estimate, "spend_cap_exceeded", "this key's spend cap", null);
      else if (answer[1] === "keymonth")
        assertWithinCap(
          caps.keyMonthlyCents as number,
          used,
          estimate,
          "monthly_cap_exceeded",
          "this key's monthly cap",
          nextMonthStart(now),
        );
      else
        assertWithinCap(
          caps.orgMonthlyCents as number,
          used,
          estimate,
          "monthly_cap_exceeded",
          "the organization's monthly budget",
          nextMonthStart(now),
        );
      throw new Error(`spend script and cap check disagree (${answer[1]})`);
    }
    throw new RedisUnavailable("spend totals were evicted while loading");
  }

  /** The carried take's decision, settled whatever the answer holds: a request never waits for a charge nobody settles. */
  private decided(take: Carried, answer: unknown[]) {
    try {
      const decision = take.answered(answer);
      take.settle(decision);
      return decision;
    } catch (err) {
      take.settle(take.failed(err));
      throw err;
    }
  }

  private async load(caps: Caps, which: "key" | "org", now: number): Promise<void> {
    const from = monthStart(now);
    const [keyHash, orgHash] = this.hashes(caps);
    if (which === "key") {
      const keyId = caps.keyId as string;
      const [life, month] = await Promise.all([this.store.keyLifetimeMicros(keyId), this.store.spentSince(caps.orgId, keyId, from)]);
      await this.redis.eval(LOAD, [keyHash], [monthOf(now), month, life, TOTALS_TTL_MS]);
    } else {
      const month = await this.store.spentSince(caps.orgId, null, from);
      await this.redis.eval(LOAD, [orgHash], [monthOf(now), month, 0, TOTALS_TTL_MS]);
    }
  }

  /** `epoch`: the data's mark the reservation was made in ("" unknown), so a settlement can tell that Redis lost it since. */
  private reservation(caps: Caps, estimate: number, onKey: boolean, onOrg: boolean, id: string, epoch = ""): Reservation {
    let open = true;
    const close = (actual: number) => {
      if (!open) return;
      open = false;
      if (!onKey && !onOrg) {
        if (actual > 0) this.settlements.addUncapped(this.hashes(caps), monthOf(this.now()), Math.round(actual));
        return;
      }
      this.leases.end(id);
      const args = [monthOf(this.now()), estimate, Math.max(0, Math.round(actual)), onKey ? 1 : 0, onOrg ? 1 : 0, TOTALS_TTL_MS, id];
      this.settlements.send({ keys: this.hashes(caps), args, idempotent: onKey || onOrg, epoch });
    };
    return { settle: (actual) => close(actual), release: () => close(0) };
  }

  private hashes(caps: Caps): [string, string] {
    return [caps.keyId === null ? "gw:spend:key:-" : `gw:spend:key:${caps.keyId}`, `gw:spend:org:${caps.orgId}`];
  }
}
