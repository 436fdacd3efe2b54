/**
 * Spend caps: before a call is forwarded, its maximum cost is reserved against every
 * cap that applies (the key's lifetime cap, the key's monthly cap, the organization's
 * monthly budget); afterwards the reservation is settled with the real cost. The
 * in-memory ledger is MemorySpendLedger; a shared one must keep the same promise:
 * concurrent calls can never together pass a cap. Months roll over at 00:00 UTC on the 1st.
 */
import { ApiError } from "../lib/errors.ts";
import type { DeferredCharge } from "./rate-charge.ts";

export const MICROS_PER_CENT = 10_000;

export interface Caps {
  keyId: string | null;
  orgId: string;
  /** Each in cents; null when not set. */
  keyLifetimeCents: number | null;
  keyMonthlyCents: number | null;
  orgMonthlyCents: number | null;
}

export interface Reservation {
  /** Replaces the reservation with the call's real cost. Idempotent with release. */
  settle(actualMicros: number): void;
  /** Gives the reservation back (the call never reached the provider's answer). */
  release(): void;
}

export interface SpendStore {
  /** Lifetime spend of a key as stored. */
  keyLifetimeMicros(keyId: string): Promise<number>;
  /** Spend since `from` (epoch ms): a key's, or the whole organization's. */
  spentSince(orgId: string, keyId: string | null, from: number): Promise<number>;
}

export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export function monthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function nextMonthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export interface SpendLedger {
  /**
   * Reserves the call's maximum cost against every cap in `caps`, or throws an
   * {@link ApiError} 429 (`spend_cap_exceeded` or `monthly_cap_exceeded`). `estimate` is
   * called only when some cap applies, so uncapped calls never price their request.
   * `charge`, the request's rate-limit charge still to be taken, may be carried by a
   * shared ledger's command (rate-charge.ts); a ledger that does not leaves it pending.
   */
  reserve(caps: Caps, estimate: () => number, charge?: DeferredCharge): Reservation | Promise<Reservation>;
}

/** Throws the 429 a call gets when its estimate does not fit under a cap (every ledger answers alike). */
export function assertWithinCap(
  capCents: number,
  usedMicros: number,
  estimate: number,
  code: "spend_cap_exceeded" | "monthly_cap_exceeded",
  what: string,
  resetAt: number | null,
): void {
  const capMicros = capCents * MICROS_PER_CENT;
  if (usedMicros + estimate <= capMicros) return;
  const remainingCents = Math.max(0, Math.floor((capMicros - usedMicros) / MICROS_PER_CENT));
  throw new ApiError(
    429,
    code,
    `This call could cost up to ${(estimate / MICROS_PER_CENT).toFixed(2)} cents, more than remains of ${what} (${remainingCents} of ${capCents} cents).`,
    {
      details: { limit: capCents, remaining: remainingCents, resetAt: resetAt === null ? null : new Date(resetAt).toISOString() },
    },
  );
}
