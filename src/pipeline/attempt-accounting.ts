/**
 * How one attempt at a provider is settled: its usage event recorded, then its metrics,
 * span, spend reservation and limit counter settled with the real cost and tokens; and
 * what the attempt tells this node's provider health. Every path of an attempt (forward.ts,
 * stream-outcome.ts) ends here exactly once.
 */
import type { ApiError } from "../lib/errors.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";
import type { Target } from "../providers/target.ts";
import { AnswerTooLarge, ClientGone } from "../providers/upstream.ts";
import { type CallUsage, emptyUsage } from "../providers/wire-format.ts";
import type { ProviderHealth } from "../state/provider-health.ts";
import type { ProviderRateUsage } from "../state/provider-rate-usage.ts";
import type { Accountant } from "./account.ts";
import type { AttemptEnd } from "./attempt-stages.ts";
import { traceAttemptEnd } from "./attempt-trace.ts";
import type { CallMetrics } from "./call-metrics.ts";
import type { CallInput } from "./call-types.ts";
import { isProviderFault } from "./fallback.ts";
import { chargeCutStream, keepCounts, retryAfterMs } from "./provider-answer.ts";
import type { CallSize } from "./reserve-spend.ts";
import type { EndStages } from "./stages.ts";

export interface AccountingDeps {
  accountant: Accountant;
  /** Counts what each provider configuration was sent and keeps the limits it reports (rate-limit status). */
  rateUsage?: ProviderRateUsage;
  /** This node's latency, error rate and circuit per provider configuration (the router reads it). */
  health?: ProviderHealth;
  /** Tokens, duration and spend per provider call, fallbacks (/metrics). */
  metrics?: CallMetrics;
}

/** What one attempt holds until it is accounted: its stages' afters, when it was sent, and its span. */
export interface Held {
  end: EndStages<AttemptEnd>;
  sentAtMs: number;
  span: TraceSpan;
}

export class AttemptAccounting {
  constructor(
    private readonly deps: AccountingDeps,
    private readonly now: () => number,
  ) {}

  /**
   * An attempt that got no answer to use: counted against the provider's health and accounted; gives what to throw.
   * A client that left once its request was sent (`size` given) is charged its prompt, as a cut stream is: the
   * provider read it, and leaving before each answer must not make calls free of a cap. So is an answer too large
   * to read: the provider read the prompt too.
   */
  async unanswered(
    input: CallInput,
    target: Target,
    held: Held,
    failure: ApiError,
    thrown: unknown = failure,
    size?: CallSize,
  ): Promise<unknown> {
    this.failed(target, failure);
    const usage = emptyUsage();
    if (size && (failure instanceof ClientGone || failure instanceof AnswerTooLarge)) chargeCutStream(usage, size, 0);
    await this.account(input, target, usage, failure, held);
    return thrown;
  }

  answered(target: Target, ttfbMs: number, totalMs: number): void {
    if (target.configId) this.deps.health?.recordSuccess(target.configId, target.model, ttfbMs, totalMs);
  }

  /** Only a failure another provider might not have counts against this one (not the caller's bad request). */
  failed(target: Target, failure: ApiError): void {
    if (target.configId && isProviderFault(failure)) this.deps.health?.recordFailure(target.configId, target.model, retryAfterMs(failure));
  }

  /**
   * One usage event (a failure's status and code, or the provider's status), and the
   * reservation settled with its cost: at once, unless strict durability waits for the store.
   * `maxFeeMicros`: the most the request's own limits let the provider charge beside the tokens.
   */
  account(
    input: CallInput,
    target: Target,
    usage: CallUsage,
    failure: ApiError | null,
    held: Held,
    okStatus = 200,
    maxFeeMicros?: number,
  ): MaybePromise<number> {
    keepCounts(usage, maxFeeMicros);
    const recorded = this.deps.accountant.record(input.scope, {
      provider: target.kind,
      model: target.model,
      status: failure ? failure.status : okStatus,
      errorCode: failure ? failure.code : null,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      cache: usage.cache,
      feeMicros: usage.feeMicros,
      serviceTier: usage.serviceTier,
    });
    return recorded instanceof Promise
      ? recorded.then((cost) => this.settle(input, target, usage, failure, held, cost))
      : this.settle(input, target, usage, failure, held, recorded);
  }

  /** The provider answered (its headers came): one request counted against its configuration, and the limits its headers report kept. */
  sent(target: Target, headers: Headers): void {
    if (target.configId) this.deps.rateUsage?.sent(target.configId, headers, this.now());
  }

  /** The attempt's metrics, span and reservation, once its cost is known. */
  private settle(input: CallInput, target: Target, usage: CallUsage, failure: ApiError | null, held: Held, cost: number): number {
    const tokens = usage.promptTokens + usage.completionTokens;
    this.deps.metrics?.attempt(
      input.scope.operation ?? "chat",
      target,
      usage.promptTokens,
      usage.completionTokens,
      (this.now() - held.sentAtMs) / 1000,
      failure ? failure.code : null,
      cost,
    );
    if (held.span.recording) traceAttemptEnd(held.span, input.scope.trace, usage, failure);
    held.end({ costMicros: cost, tokens });
    held.span.end();
    if (target.configId) this.deps.rateUsage?.tokens(target.configId, tokens, this.now());
    return cost;
  }
}
