/**
 * A request's rate-limit charge held back so that its shared (Redis) command can travel
 * in the call's spend reservation: one round trip for both instead of one each. However
 * the request goes, the charge is decided exactly once: carried by the reservation's
 * command, or taken alone the first time it is asked for (a call no cap applies to, a
 * request that ended before its reservation, the request runner at the end).
 */
import type { RateDecision } from "./rate-limiter.ts";

/** What a command needs to take a bucket's token in the same script: the bucket's key and the take's arguments. */
export interface CarriedTake {
  key: string;
  args: (string | number)[];
  /** The decision, read from the carrying command's answer (its first four fields). */
  answered(answer: readonly unknown[]): RateDecision;
  /** The decision when the carrying command failed: this node's share, as when Redis does not answer a take. */
  failed(err: unknown): RateDecision;
}

/** A limiter whose take can be carried by another command (the Redis one). */
export interface CarryingLimiter {
  take(bucketKey: string): RateDecision | Promise<RateDecision>;
  carried(bucketKey: string): CarriedTake;
}

/** A shared limiter that can hold a charge back (the Redis one; the in-memory limiter takes at once). */
export interface DeferringLimiter {
  /** The charge held back for the call's spend reservation to carry; null when the token is to be taken now. */
  defer(bucketKey: string): DeferredCharge | null;
}

/** What a command that carries the charge reports back: exactly one of the two, once. */
export interface Carried extends CarriedTake {
  settle(decision: RateDecision): void;
}

export class DeferredCharge {
  private decided: Promise<RateDecision> | null = null;

  constructor(
    private readonly limiter: CarryingLimiter,
    readonly bucket: string,
  ) {}

  /** Nothing has taken the token yet. */
  get pending(): boolean {
    return this.decided === null;
  }

  /** The decision: the carried one, or the token taken alone now (once). */
  decision(): Promise<RateDecision> {
    return (this.decided ??= Promise.resolve(this.limiter.take(this.bucket)));
  }

  /**
   * Hands the charge to a command about to be sent, which must `settle` it with the
   * decision its answer (or its failure) gives; null when the charge is decided already.
   */
  carry(): Carried | null {
    if (this.decided) return null;
    const take = this.limiter.carried(this.bucket);
    let settle!: (decision: RateDecision) => void;
    this.decided = new Promise((resolve) => (settle = resolve));
    return { ...take, settle };
  }
}
