/**
 * A value now or later. Caches and in-memory state answer at once when they can (the
 * organization's settings, the embedded limiter and ledger); a caller that chains on
 * them with `andThen` pays a promise only when one was given.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next` applied to the value: at once when it is here, when it arrives otherwise. */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
