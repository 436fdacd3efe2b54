/**
 * The stage contract of the request path (the Bifrost plugin contract, docs STYLE.md):
 * a stage's `before` takes what the call needs, changes what it carries, or refuses it
 * with a typed error; the `after` it returns gives back or settles what it took. The
 * afters of the stages that started run in reverse order, exactly once, whatever
 * happens: with the result when the call ends, or with nothing when a later stage or
 * the call itself failed. Both lists, the call's (call-stages.ts) and each attempt's
 * (attempt-stages.ts), run on this one runner.
 *
 * The runner also traces them: each stage gets a child span of the call's (or the
 * attempt's) span, from its before to its after, so a reservation's span shows how long
 * it was held. Stages only add attributes to the span they are handed; a new stage is
 * traced without anyone remembering to. With tracing off the span is the shared no-op.
 */
import type { MaybePromise } from "../lib/maybe-promise.ts";
import { NOOP_SPAN, type TraceSpan } from "../lib/tracing/trace-span.ts";

/** Runs when the call (or attempt) ends: with its result, or null when it failed before one. */
export type After<R> = (result: R | null) => void | Promise<void>;

export interface Stage<C, R, A extends After<R> = After<R>> {
  name: string;
  /** `span`: this stage's own span, for its attributes (never prompt or completion text). */
  before(ctx: C, span: TraceSpan): A | null | Promise<A | null>;
}

/** Ends the stages once: their afters in reverse. Synchronous while the afters are, so a settled reservation is settled at once. */
export type EndStages<R> = (result: R | null) => void | Promise<void>;

/**
 * Every after runs, even when one before it threw: what later stages took is still
 * given back. The first failure is thrown once all have run.
 */
function runAfters<R>(
  afters: readonly After<R>[],
  result: R | null,
  from: number,
  failure: { error: unknown } | null,
): void | Promise<void> {
  for (let i = from; i >= 0; i--) {
    let pending: void | Promise<void>;
    try {
      pending = afters[i]!(result);
    } catch (error) {
      failure ??= { error };
      continue;
    }
    if (pending instanceof Promise) {
      return pending.then(
        () => runAfters(afters, result, i - 1, failure),
        (error) => runAfters(afters, result, i - 1, failure ?? { error }),
      );
    }
  }
  if (failure) throw failure.error;
}

/** The after, ending the stage's span once it has run (whether it threw or not). */
function tracedAfter<R, A extends After<R>>(after: A, span: TraceSpan): A {
  return ((result: R | null) => {
    let pending: void | Promise<void>;
    try {
      pending = after(result);
    } catch (err) {
      span.fail(err);
      span.end();
      throw err;
    }
    if (!(pending instanceof Promise)) {
      span.end();
      return;
    }
    return pending.then(
      () => span.end(),
      (err) => {
        span.fail(err);
        span.end();
        throw err;
      },
    );
  }) as A;
}

/**
 * Runs the stages' befores in order, each in a child span of `trace`; gives the
 * function that runs the started ones' afters, in reverse, once. At once when every
 * before answered at once (the usual call: nothing in memory to wait for, so no
 * promise and no turn of the microtask queue), else once the last one has answered. A
 * refusal is always a rejected promise, given after the started stages' afters ran.
 */
export function startStages<C, R, A extends After<R>>(
  stages: readonly Stage<C, R, A>[],
  ctx: C,
  trace: TraceSpan = NOOP_SPAN,
): MaybePromise<EndStages<R>> {
  const afters: A[] = [];
  let ended = false;
  const end: EndStages<R> = (result) => {
    if (ended) return;
    ended = true;
    return runAfters(afters, result, afters.length - 1, null);
  };
  return befores(stages, 0, ctx, trace, afters, end);
}

/** The befores from `first` on; the afters of those that took something kept in `afters`. */
function befores<C, R, A extends After<R>>(
  stages: readonly Stage<C, R, A>[],
  first: number,
  ctx: C,
  trace: TraceSpan,
  afters: A[],
  end: EndStages<R>,
): MaybePromise<EndStages<R>> {
  for (let i = first; i < stages.length; i++) {
    const stage = stages[i]!;
    // Tracing off: no span name is built (a string per stage of every call).
    const span = trace === NOOP_SPAN ? NOOP_SPAN : trace.child(`gw.${stage.name}`);
    let pending: A | null | Promise<A | null>;
    try {
      pending = stage.before(ctx, span);
    } catch (err) {
      return refused(end, span, err);
    }
    if (pending instanceof Promise)
      return pending.then(
        (after) => {
          started<R, A>(afters, after, span);
          return befores(stages, i + 1, ctx, trace, afters, end);
        },
        (err) => refused(end, span, err),
      );
    started<R, A>(afters, pending, span);
  }
  return end;
}

/** A stage's after kept for the end (traced when its span records); a stage that took nothing ends its span now. */
function started<R, A extends After<R>>(afters: A[], after: A | null, span: TraceSpan): void {
  if (!after) span.end();
  else afters.push(span.recording ? tracedAfter<R, A>(after, span) : after);
}

/** The refusing stage's span failed and ended, the started stages unwound, then the refusal passed on. */
async function refused<R>(end: EndStages<R>, span: TraceSpan, err: unknown): Promise<never> {
  span.fail(err);
  span.end();
  await end(null);
  throw err;
}
