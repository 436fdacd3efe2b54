/**
 * The stages every attempt at a provider runs before it is sent, as one ordered list
 * of before/after pairs (the Bifrost plugin contract, docs STYLE.md): `before` takes
 * what the attempt needs or refuses it with a typed error; its `after` gives that back
 * or settles it, and the afters of the stages that started run in reverse order,
 * exactly once, whatever happens: when the attempt is accounted (with its real cost
 * and tokens), or when it fails before that (with nothing). A fallback runs the list
 * again for the next target, so what one attempt took moves to the next. Adding a
 * per-attempt check is one stage here.
 */
import type { ResolvedTarget } from "./authorize.ts";
import type { CallInput } from "./call-types.ts";
import { type ProviderLimitDeps, takeProviderLimit } from "./provider-limit.ts";
import { type CallSize, reserveSpend, type SpendDeps } from "./reserve-spend.ts";

export interface AttemptContext {
  input: CallInput;
  target: ResolvedTarget;
  size: CallSize;
}

/** How an attempt ended: what it was charged and the tokens counted; null when it ended before any answer was accounted. */
export type AttemptEnd = { costMicros: number; tokens: number } | null;

export type AttemptAfter = (end: AttemptEnd) => void;

export interface AttemptStage {
  name: string;
  before(ctx: AttemptContext): AttemptAfter | null | Promise<AttemptAfter | null>;
}

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

/** The spend reservation against the caps: settled with the real cost, or released. A sandbox call is free: nothing to reserve. */
export function reserveSpendStage(deps: SpendDeps): AttemptStage {
  return {
    name: "reserve-spend",
    async before({ input, target, size }) {
      if (target.simulated) return null;
      const reservation = await reserveSpend(deps, input.scope.identity, target, size);
      return (end) => (end ? reservation.settle(end.costMicros) : reservation.release());
    },
  };
}

/** Runs the stages' befores in order; returns the function that runs the started ones' afters, in reverse, once. */
export async function startAttempt(stages: readonly AttemptStage[], ctx: AttemptContext): Promise<AttemptAfter> {
  const afters: AttemptAfter[] = [];
  let ended = false;
  const end: AttemptAfter = (result) => {
    if (ended) return;
    ended = true;
    for (let i = afters.length - 1; i >= 0; i--) afters[i]!(result);
  };
  try {
    for (const stage of stages) {
      const after = await stage.before(ctx);
      if (after) afters.push(after);
    }
  } catch (err) {
    end(null);
    throw err;
  }
  return end;
}
