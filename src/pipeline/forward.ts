/**
 * Stages 7 to 10 of one attempt at one provider: reserve spend, the provider's own
 * limits, send, read (JSON or stream), check the answering model and account. Every
 * path settles what it took: accounting (attempt-accounting.ts) settles the reservation
 * with the real cost (and the limit counter with the real tokens), anything failing
 * before gives both back. A stream's outcome is built in stream-outcome.ts; a whole
 * answer's here. Every attempt feeds this node's provider health, so the router learns
 * from explicit calls as much as from routed ones.
 */
import { ApiError, toApiError } from "../lib/errors.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import { jsonObjectMembers } from "../lib/json-members.ts";
import type { ProviderAdapter, UpstreamRequest } from "../providers/adapter.ts";
import type { Target } from "../providers/target.ts";
import {
  AnswerTooLarge,
  answerText,
  type SendOptions,
  sendUpstream,
  startUpstream,
  type UpstreamResponse,
  unreadAnswer,
  upstreamError,
  upstreamFailure,
} from "../providers/upstream.ts";
import type { CallInput, CallOutcome, JsonOutcome } from "./call-types.ts";
import { type AttemptStage, providerLimitStage, reserveSpendStage, startAttempt } from "./attempt-stages.ts";
import type { ProviderLimitDeps } from "./provider-limit.ts";
import type { CallSize, SpendDeps } from "./reserve-spend.ts";
import type { ResolvedTarget } from "./authorize.ts";
import { jsonOutcome, parseObject, reshapedText, rethrow, substitutionOf } from "./provider-answer.ts";
import { secretValues } from "../providers/credentials.ts";
import { NOOP_SPAN } from "../lib/tracing/trace-span.ts";
import { type AccountingDeps, AttemptAccounting, type Held } from "./attempt-accounting.ts";
import type { Route } from "./call-route.ts";
import { type StreamDeps, StreamOutcomes } from "./stream-outcome.ts";

export interface ForwardDeps extends AccountingDeps, StreamDeps {
  spend: SpendDeps;
  /** The configurations' own limits (requests and tokens per minute, requests per day). */
  limits?: ProviderLimitDeps;
  now?: () => number;
}

export class Forwarder {
  private readonly now: () => number;
  /** The per-attempt stages before sending, in order (attempt-stages.ts). */
  private readonly stages: AttemptStage[];
  /** Every attempt's end: its usage event, reservation, metrics and the provider's health. */
  private readonly accounts: AttemptAccounting;
  /** Running streams: their taps, their idle bound, and those not accounted yet. */
  private readonly streams: StreamOutcomes;

  constructor(private readonly deps: ForwardDeps) {
    this.now = deps.now ?? Date.now;
    // The reservation first: a routed candidate the spend cap refuses is passed over (fallback.ts) without
    // taking a request of its configuration's own limit, which would then refuse others a call it never made.
    this.stages = [reserveSpendStage(deps.spend), ...(deps.limits ? [providerLimitStage(deps.limits)] : [])];
    this.accounts = new AttemptAccounting(deps, this.now);
    this.streams = new StreamOutcomes(deps, this.accounts, this.now);
  }

  /** The most of a provider's answer read (GW_MAX_ANSWER_BYTES): what a translation may hold of one, too. */
  get maxAnswerBytes(): number {
    return this.deps.maxAnswerBytes;
  }

  /** The shutdown's drain deadline: running streams end with their terminal error event; returns how many. */
  cutStreams(): number {
    return this.streams.cutAll();
  }

  /** Shutdown: refused streams stop draining, and this resolves once every stream's call is accounted. */
  stop(): Promise<void> {
    return this.streams.stop();
  }

  /**
   * One attempt: the per-attempt stages (the spend reservation; the provider's own limit,
   * a 429 naming its reset before anything is sent), then the call. Whatever
   * happens, the stages' afters run once: at accounting, or on the way out. One async
   * frame for the attempt's real waits (the provider's headers, a whole answer's body):
   * the send and the answer read are awaited here, not each in a layer of its own.
   */
  async forward(
    input: CallInput,
    target: ResolvedTarget,
    adapter: ProviderAdapter,
    build: () => UpstreamRequest | Promise<UpstreamRequest>,
    stream: boolean,
    route: Route,
    size: CallSize,
  ): Promise<CallOutcome> {
    const span = input.scope.attemptTrace ?? NOOP_SPAN;
    // Stages that answered at once (the usual attempt) are not awaited: no promise, no turn.
    const starting = startAttempt(this.stages, { input, target, size }, span);
    const end = starting instanceof Promise ? await starting : starting;
    const held: Held = { end, sentAtMs: this.now(), span };
    try {
      const built = build();
      const req = built instanceof Promise ? await built : built;
      held.sentAtMs = this.now();
      // A sandbox call is answered in process by its adapter; one built otherwise must never leave with empty credentials.
      if (target.simulated && !req.local)
        throw new ApiError(500, "internal_server_error", "A sandbox call was not answered by the simulator.");
      const opts: SendOptions = {
        caller: input.caller,
        timeoutMs: this.deps.upstreamTimeoutMs,
        providerName: target.providerName,
        trace: span,
      };
      let up: UpstreamResponse;
      try {
        if (req.local) up = await sendUpstream(req, opts);
        else {
          const call = startUpstream(req, opts);
          try {
            call.response = await call.sending;
          } catch (err) {
            throw upstreamError(call, opts, err);
          }
          up = call;
        }
      } catch (err) {
        // No answer: accounted (and counted against the provider's health) before it is thrown.
        throw await this.accounts.unanswered(input, target, held, toApiError(err), err, size);
      }
      // A running stream is counted at its end (stream-outcome.ts): reading the provider's
      // limit headers is bookkeeping no caller waits for, and before the first byte it ran cold.
      if (!stream || !up.response.ok || !up.response.body) this.accounts.sent(target, up.response.headers);
      if (!up.response.ok) {
        const failure = await upstreamFailure(up.response, target.providerName, secretValues(target.credentials));
        up.done();
        throw await this.accounts.unanswered(input, target, held, failure);
      }
      let outcome: CallOutcome;
      if (stream) {
        // No body (a 204): the provider's failure, accounted now; the stream's end would never come to account it.
        if (!up.response.body) {
          up.done();
          const empty = new ApiError(502, "provider_error", `${target.providerName} sent an empty stream.`);
          throw await this.accounts.unanswered(input, target, held, empty);
        }
        outcome = this.streams.outcome(input, target, adapter, up, route, held, size);
      } else {
        const ttfbMs = this.now() - held.sentAtMs;
        let text: string | null;
        try {
          text = await answerText(up.response, this.deps.maxAnswerBytes);
        } catch {
          throw await this.accounts.unanswered(input, target, held, unreadAnswer(up, opts), undefined, size);
        } finally {
          up.done();
        }
        // Past the bound, the rest was left unread: the provider's failure, though it read the prompt.
        if (text === null)
          throw await this.accounts.unanswered(
            input,
            target,
            held,
            new AnswerTooLarge(target.providerName, this.deps.maxAnswerBytes),
            undefined,
            size,
          );
        const answered = this.json(input, target, up.response.status, text, ttfbMs, route, held, size.maxFeeMicros);
        outcome = answered instanceof Promise ? await answered : answered;
      }
      // A sandbox call is free, so nothing about its price is estimated.
      if (!target.simulated && this.deps.spend.catalog.price(target.model, target.kind).estimated) outcome.priceEstimated = true;
      return outcome;
    } catch (err) {
      end(null);
      throw err;
    }
  }

  /** A whole answer, read: checked, accounted, and its outcome (at once unless strict durability waits for the store). */
  private json(
    input: CallInput,
    target: Target,
    status: number,
    text: string,
    ttfbMs: number,
    route: Route,
    held: Held,
    maxFeeMicros: number | undefined,
  ): MaybePromise<JsonOutcome> {
    const body = route.membersOnly && !route.reshape ? jsonObjectMembers(text, route.wire.bodyMembers) : parseObject(text);
    if (body === null) {
      const err = new ApiError(502, "provider_error", `${target.providerName} answered with something that is not a JSON object.`);
      return this.accounts.unanswered(input, target, held, err).then(rethrow);
    }
    this.accounts.answered(target, ttfbMs, this.now() - held.sentAtMs);
    const usage = route.wire.fromBody(body);
    const substitution = substitutionOf(target, usage);
    const answer = substitution ?? reshapedText(target, text, body, route.reshape);
    const failure = answer instanceof ApiError ? answer : null;
    const caller = typeof answer === "string" ? answer : text;
    // A substituted (or untranslatable) answer was still paid for: its cost is recorded before it is refused.
    const accounted = this.accounts.account(input, target, usage, failure, held, status, maxFeeMicros);
    if (accounted instanceof Promise) return accounted.then((cost) => jsonOutcome(target, status, caller, usage, failure, cost));
    return jsonOutcome(target, status, caller, usage, failure, accounted);
  }
}
