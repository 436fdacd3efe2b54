/**
 * The stage contract of the request path (the Bifrost plugin contract, docs STYLE.md):
 * a stage's `before` takes what the call needs, changes what it carries, or refuses it
 * with a typed error; the `after` it returns gives back or settles what it took. The
 * afters of the stages that started run in reverse order, exactly once, whatever
 * happens: with the result when the call ends, or with nothing when a later stage or
 * the call itself failed. Both lists, the call's (call-stages.ts) and each attempt's
 * (attempt-stages.ts), run on this one runner.
 */

/** Runs when the call (or attempt) ends: with its result, or null when it failed before one. */
export type After<R> = (result: R | null) => void | Promise<void>;

export interface Stage<C, R, A extends After<R> = After<R>> {
  name: string;
  before(ctx: C): A | null | Promise<A | null>;
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

/** Runs the stages' befores in order; returns the function that runs the started ones' afters, in reverse, once. */
export async function startStages<C, R, A extends After<R>>(stages: readonly Stage<C, R, A>[], ctx: C): Promise<EndStages<R>> {
  const afters: A[] = [];
  let ended = false;
  const end: EndStages<R> = (result) => {
    if (ended) return;
    ended = true;
    return runAfters(afters, result, afters.length - 1, null);
  };
  try {
    for (const stage of stages) {
      const after = await stage.before(ctx);
      if (after) afters.push(after);
    }
  } catch (err) {
    await end(null);
    throw err;
  }
  return end;
}
