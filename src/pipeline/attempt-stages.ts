/**
 * The stages every attempt at a provider runs before it is sent, as one ordered list
 * of before/after pairs on the runner of stages.ts: `before` takes what the attempt
 * needs or refuses it with a typed error; its `after` gives that back or settles it,
 * when the attempt is accounted (with its real cost and tokens), or when it fails
 * before that (with nothing). A fallback runs the list again for the next target, so
 * what one attempt took moves to the next. Adding a per-attempt check is one stage
 * here.
 */
import type { ResolvedTarget } from "./authorize.ts";
import type { CallInput } from "./call-types.ts";
import { type ProviderLimitDeps, takeProviderLimit } from "./provider-limit.ts";
import { type CallSize, reserveSpend, type SpendDeps } from "./reserve-spend.ts";
import { decideCharge } from "./rate-limit.ts";
import { type EndStages, type Stage, startStages } from "./stages.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";
import type { DeferredCharge } from "../state/rate-charge.ts";
import type { Reservation } from "../state/spend-ledger.ts";

export interface AttemptContext {
  input: CallInput;
  target: ResolvedTarget;
  size: CallSize;
}

/** How an attempt ended: what it was charged and the tokens counted (null: it ended before any answer was accounted). */
export interface AttemptEnd {
  costMicros: number;
  tokens: number;
}

/** Synchronous: an attempt is settled at once, before the next attempt reserves again. */
export type AttemptAfter = (end: AttemptEnd | null) => void;
export type AttemptStage = Stage<AttemptContext, AttemptEnd, AttemptAfter>;

/** The configuration's own limits: a 429 naming the reset before anything is sent; the estimate corrected to the real tokens after. */
export function providerLimitStage(deps: ProviderLimitDeps): AttemptStage {
  return {
    name: "provider-limit",
    before({ target, size }) {
      const ticket = takeProviderLimit(deps, target, size);
      return ticket && ((end) => ticket.settle(end?.tokens ?? 0));
    },
  };
}

/**
 * The spend reservation against the caps: settled with the real cost, or released. A
 * sandbox call is free: nothing to reserve. A rate-limit charge the request runner held
 * back (rate-charge.ts) is decided here at the latest, before anything is sent: carried
 * by the reservation's command, or taken alone.
 */
export function reserveSpendStage(deps: SpendDeps): AttemptStage {
  return {
    name: "reserve-spend",
    before({ input, target, size }, span) {
      // Decided once: on a fallback's next attempt this is the first one's decision, already known.
      const charge = input.scope.charge;
      if (target.simulated) return charge ? decideCharge(charge).then(() => null) : null;
      const onEstimate = span.recording ? (micros: number) => span.set("gw.spend.reserved_micros", micros) : undefined;
      const reserved = reserveSpend(deps, input.scope.identity, target, size, onEstimate, charge);
      // Nothing to wait for (an uncapped call in memory): answered at once, no promise.
      if (!charge && !(reserved instanceof Promise)) return settledBy(reserved, span);
      return charged(reserved, charge, span);
    },
  };
}

/** The reservation awaited, then the held-back charge decided (the reservation given back if it refuses). */
async function charged(
  reserved: Reservation | Promise<Reservation>,
  charge: DeferredCharge | undefined,
  span: TraceSpan,
): Promise<AttemptAfter> {
  const reservation = await reserved;
  if (charge)
    await decideCharge(charge).catch((err) => {
      reservation.release();
      throw err;
    });
  return settledBy(reservation, span);
}

/** The after: released when the attempt ended without an answer, else settled with its real cost. */
function settledBy(reservation: Reservation, span: TraceSpan): AttemptAfter {
  return (end) => {
    if (!end) return reservation.release();
    span.set("gw.spend.charged_micros", end.costMicros);
    reservation.settle(end.costMicros);
  };
}

/** Runs the attempt's stages; their afters are synchronous, so a reservation is given back before the next attempt takes one. */
export const startAttempt = (
  stages: readonly AttemptStage[],
  ctx: AttemptContext,
  trace?: TraceSpan,
): MaybePromise<EndStages<AttemptEnd>> => startStages(stages, ctx, trace);
