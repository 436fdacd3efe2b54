/**
 * The fallback loop: one attempt per target, in order, until one answers. Only a
 * failure that another provider might not have (a 429 from the provider or its
 * configured limit, a 5xx, a timeout, a connection failure, a 401 or 403 refusing the
 * configuration's key: `movesOn`) moves on, and only before
 * any byte reached the client: an attempt returns once the provider's headers came,
 * so a stream that breaks after that ends with an error and is never retried. Each
 * attempt runs the per-attempt stages again (authorization, limits, reservation,
 * send, check, account), so the spend reservation moves with it and a failed
 * attempt is accounted at what it cost (nothing, when no answer came). A
 * configuration whose circuit is open is skipped while another target remains; when
 * every target left is cooling down, the first of them is tried (its probe). A routed
 * plan passes over a candidate whose reservation the spend cap refuses (nothing was
 * sent, so it is no attempt, and `x-gw-fallback: off` does not stop it): a cheaper one
 * may fit; when none does, the first refusal is the answer, as it was without routing.
 */
import { ApiError } from "../lib/errors.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";
import { type AttemptTracing, attemptSpan } from "./attempt-trace.ts";
import type { ProviderHealth } from "../state/provider-health.ts";
import type { ResolvedTarget } from "./authorize.ts";
import type { CallOutcome } from "./call-types.ts";
import { isCapError } from "./reserve-spend.ts";

const PROVIDER_FAULTS = new Set(["provider_error", "provider_unavailable", "provider_timeout", "rate_limit_exceeded"]);

/**
 * A failure of the provider, not of the request or the caller's budget: worth another
 * provider, and counted against this one's health. A provider's 401 refuses the
 * configuration's own key (revoked, expired), whatever the caller sent.
 */
export function isProviderFault(err: unknown): err is ApiError {
  if (!(err instanceof ApiError) || !PROVIDER_FAULTS.has(err.code)) return false;
  return err.status === 429 || err.status >= 500 || (err.code === "provider_error" && err.status === 401);
}

/**
 * A failure that moves the call to the next target: a provider fault, or a provider's
 * 403 (the configuration's key has no access to this model or feature). A 403 is not
 * counted against the configuration's health: a caller can earn one by naming a model
 * the key may not use, and three would close a shared configuration to everyone.
 */
export function movesOn(err: unknown): err is ApiError {
  return isProviderFault(err) || (err instanceof ApiError && err.code === "provider_error" && err.status === 403);
}

/**
 * A fallback target that cannot take the call as it is written (a translated provider
 * for a call that needs stored state): skipped, not counted as an attempt, and the
 * call ends with the last provider's failure if no other target answers.
 */
export class TargetUnsuitable extends ApiError {
  constructor(message: string) {
    super(400, "invalid_request", message);
  }
}

/** A target, or how to resolve it when its turn comes (most calls never need the later ones). */
export type TargetRef = ResolvedTarget | (() => MaybePromise<ResolvedTarget>);

export interface AttemptPlan {
  /** In the order to try them; the first (resolved) is the one the caller named or the router chose. */
  targets: [ResolvedTarget, ...TargetRef[]];
  /** false: one attempt only (`x-gw-fallback: off`). */
  fallback: boolean;
  /**
   * The targets are the router's candidates (`gateway/auto`, a family, `x-gw-route`): one
   * whose reservation a spend cap refuses is passed over for the next. A named model keeps
   * its refusal: the caller asked for that model.
   */
  passOverCaps?: boolean;
}

/** The outcome and how many attempts it took (the `x-gw-attempts` header). */
export interface Attempted<O extends CallOutcome> {
  outcome: O;
  target: ResolvedTarget;
  attempts: number;
  /** The codes of the failures that moved the call on, when it did (for /metrics). */
  fallbackCauses?: string[];
  /** The candidates passed over because a spend cap refused their reservation, each as `provider/model=code` (`x-gw-route-skipped`). */
  capSkipped?: string[];
}

export async function runAttempts<O extends CallOutcome>(
  plan: AttemptPlan,
  health: ProviderHealth | undefined,
  /** `n`: which attempt this is, from 1 (skipped targets are not counted); `span`: the attempt's own. */
  attempt: (target: ResolvedTarget, n: number, span: TraceSpan) => Promise<O>,
  trace?: AttemptTracing,
): Promise<Attempted<O>> {
  // With fallback off only a cap's refusal, which sent nothing, reaches a later target.
  const targets = plan.fallback || plan.passOverCaps ? plan.targets : plan.targets.slice(0, 1);
  let attempts = 0;
  let last: unknown = null;
  let causes: string[] | undefined;
  let failed: Set<string> | undefined;
  /** The first target skipped while cooling down. */
  let cooling: ResolvedTarget | undefined;
  /** The first cap refusal a candidate was passed over for: the answer when no candidate that fits was tried. */
  let capped: ApiError | null = null;
  let skipped: string[] | undefined;
  for (let i = 0; i < targets.length; i++) {
    const more = i < targets.length - 1;
    /** Another target may be tried after a provider's failure. */
    const othersLeft = more && plan.fallback;
    let target: ResolvedTarget;
    try {
      const ref = targets[i]!;
      target = typeof ref === "function" ? await ref() : ref;
    } catch (err) {
      // A routed target whose configuration went away since the plan is passed over, as an unsuitable one is.
      if (err instanceof TargetUnsuitable && more) continue;
      if (err instanceof TargetUnsuitable && (last ?? capped) !== null) throw withAttempts(last ?? capped, attempts);
      // A fallback model that does not resolve (unknown, not configured) is the caller's error, named as such.
      throw withAttempts(err, attempts);
    }
    // The configuration and model that just failed, named again (a fallback list naming the model itself, or one twice): a retry
    // of the same provider, not a fallback, which a 429 would only make worse: passed over.
    if (failed?.has(attemptKey(target))) {
      if (more) continue;
      throw withAttempts(last ?? capped, attempts);
    }
    // A cooling-down configuration is skipped while another can answer.
    if (othersLeft && target.configId && health && !health.admits(target.configId)) {
      cooling ??= target;
      continue;
    }
    // Every target left cools down: the best ranked of them (the model the caller named, the router's first) is tried, not the last ranked.
    if (!othersLeft && cooling !== undefined && target.configId && health?.isCoolingDown(target.configId)) target = cooling;
    attempts++;
    const span = attemptSpan(trace, target, attempts, last);
    try {
      const outcome = await attempt(target, attempts, span);
      // A whole answer was accounted already (which ended its span); a stream's span ends with the stream.
      if (outcome.type === "json") span.end();
      const done: Attempted<O> = { outcome, target, attempts };
      if (causes) done.fallbackCauses = causes;
      if (skipped) done.capSkipped = skipped;
      return done;
    } catch (err) {
      span.fail(err);
      span.end();
      if (err instanceof TargetUnsuitable && (last ?? capped) !== null) {
        attempts--;
        if (more) continue;
        throw withAttempts(last ?? capped, attempts);
      }
      // The cap cannot pay for this candidate: nothing was sent, so no attempt; a cheaper one may fit.
      if (plan.passOverCaps && isCapError(err)) {
        attempts--;
        capped ??= err;
        (skipped ??= []).push(`${target.providerName}/${target.model}=${err.code}`);
        (causes ??= []).push(err.code);
        if (more) continue;
        throw withAttempts(last ?? capped, attempts);
      }
      if (!othersLeft || !movesOn(err)) throw withAttempts(err, attempts);
      last = err;
      (causes ??= []).push(err.code);
      if (target.configId) (failed ??= new Set()).add(attemptKey(target));
    }
  }
  // Unreachable in practice: the last target either answers or throws above.
  throw withAttempts(last ?? capped ?? new ApiError(502, "provider_error", "No provider answered."), attempts);
}

/** One configuration's model: a per-request key's target (no configuration) is never the same twice. */
const attemptKey = (target: ResolvedTarget): string => `${target.configId}\u0000${target.model}`;

/** The error as the caller sees it, telling how many providers were tried. */
function withAttempts(err: unknown, attempts: number): unknown {
  if (!(err instanceof ApiError) || attempts < 2) return err;
  return new ApiError(err.status, err.code, err.message, {
    details: { ...err.details, attempts },
    param: err.param,
    headers: { ...err.headers, "x-gw-attempts": String(attempts) },
  });
}
