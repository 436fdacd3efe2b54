/**
 * Stages 7 to 10 of one attempt at one provider: the provider's own limits, reserve
 * spend, send, read (JSON or stream), check the answering model and account. Every
 * path settles what it took: accounting settles the reservation with the real cost
 * (and the limit counter with the real tokens), anything failing before gives both
 * back. Every attempt feeds this node's provider health, so the router learns from
 * explicit calls as much as from routed ones.
 */
import { ApiError, toApiError } from "../lib/errors.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import { jsonObjectMembers } from "../lib/json-members.ts";
import { type SseTapOptions, sseTapSource } from "../lib/sse.ts";
import type { ProviderAdapter, UpstreamRequest } from "../providers/adapter.ts";
import { servedBy, type Target } from "../providers/target.ts";
import {
  AnswerTooLarge,
  answerText,
  ClientGone,
  type SendOptions,
  sendUpstream,
  startUpstream,
  type UpstreamResponse,
  unreadAnswer,
  upstreamError,
  upstreamFailure,
} from "../providers/upstream.ts";
import { type CallUsage, emptyUsage, type WireFormat } from "../providers/wire-format.ts";
import type { ProviderHealth } from "../state/provider-health.ts";
import type { ProviderRateUsage } from "../state/provider-rate-usage.ts";
import type { Accountant } from "./account.ts";
import type { CallInput, CallOutcome, JsonOutcome, StreamOutcome } from "./call-types.ts";
import { isProviderFault } from "./fallback.ts";
import { type AttemptEnd, type AttemptStage, providerLimitStage, reserveSpendStage, startAttempt } from "./attempt-stages.ts";
import type { EndStages } from "./stages.ts";
import type { ProviderLimitDeps } from "./provider-limit.ts";
import type { CallSize, SpendDeps } from "./reserve-spend.ts";
import type { ResolvedTarget } from "./authorize.ts";
import {
  chargeCutStream,
  jsonOutcome,
  keepCounts,
  parseObject,
  reshapedText,
  rethrow,
  retryAfterMs,
  STREAM_INTERRUPTED,
  substitutionOf,
} from "./provider-answer.ts";
import { secretValues } from "../providers/credentials.ts";
import { NOOP_SPAN, type TraceSpan } from "../lib/tracing/trace-span.ts";
import { traceAttemptEnd } from "./attempt-trace.ts";
import type { CallMetrics } from "./call-metrics.ts";
import { type IdleStream, idleMarker, StreamIdleWatch } from "./stream-idle.ts";
import { StreamEnding } from "./stream-end.ts";

export interface ForwardDeps {
  spend: SpendDeps;
  accountant: Accountant;
  upstreamTimeoutMs: number;
  /** A running stream whose provider sends no byte for this long is ended (GW_STREAM_IDLE_TIMEOUT_S); absent or 0: no bound. */
  streamIdleTimeoutMs?: number;
  /** The most of a provider's answer read, in bytes: a whole answer, or one stream event (GW_MAX_ANSWER_BYTES). */
  maxAnswerBytes: number;
  /** Counts what each provider configuration was sent and keeps the limits it reports (rate-limit status). */
  rateUsage?: ProviderRateUsage;
  /** This node's latency, error rate and circuit per provider configuration (the router reads it). */
  health?: ProviderHealth;
  /** The configurations' own limits (requests and tokens per minute, requests per day). */
  limits?: ProviderLimitDeps;
  /** Tokens, duration and spend per provider call, fallbacks (/metrics). */
  metrics?: CallMetrics;
  now?: () => number;
}

/** What one attempt holds until it is accounted: its stages' afters, when it was sent, and its span. */
interface Held {
  end: EndStages<AttemptEnd>;
  sentAtMs: number;
  span: TraceSpan;
}

/** How one call travels: the wire format read on the way back, and optional reshaping for a caller of another format. */
export interface Route {
  wire: WireFormat;
  /** Non-stream: the provider's body as the caller's format. */
  reshape?: (body: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Non-stream, not reshaped: the body is read for the wire's members only, not parsed
   * whole (embeddings: tens of kilobytes of numbers the gateway relays unread).
   */
  membersOnly?: boolean;
  /**
   * Stream: the provider's SSE as the caller's format, its events at most `maxEventChars` long.
   * It keeps `counts` (tokens only, never the model) as the provider reports them, so a stream
   * the client leaves before the translated usage chunk is charged the provider's own counts.
   */
  restream?: (maxEventChars: number, counts: CallUsage) => TransformStream<Uint8Array, Uint8Array>;
  /** Stream: events to drop before the caller sees them. */
  keep?: (data: string) => boolean;
}

export class Forwarder {
  /** Aborted at shutdown: ends the background reads of refused streams at once. */
  private readonly closing = new AbortController();
  /** Streams whose call is not accounted yet, each settled once its usage event is recorded. */
  private readonly unaccounted = new Set<Promise<void>>();
  private readonly now: () => number;
  /** The per-attempt stages before sending, in order (attempt-stages.ts). */
  private readonly stages: AttemptStage[];
  /** The idle bound on running streams: one sweep for all of them. */
  private readonly idle: StreamIdleWatch;

  constructor(private readonly deps: ForwardDeps) {
    this.now = deps.now ?? Date.now;
    this.idle = new StreamIdleWatch(deps.streamIdleTimeoutMs ?? 0);
    this.stages = [...(deps.limits ? [providerLimitStage(deps.limits)] : []), reserveSpendStage(deps.spend)];
  }

  /** The most of a provider's answer read (GW_MAX_ANSWER_BYTES): what a translation may hold of one, too. */
  get maxAnswerBytes(): number {
    return this.deps.maxAnswerBytes;
  }

  /** Shutdown: refused streams stop draining, and this resolves once every stream's call is accounted. */
  async stop(): Promise<void> {
    this.closing.abort();
    // The idle bound still ends stalled streams meanwhile; then its sweep stops.
    await Promise.allSettled([...this.unaccounted]);
    this.idle.stop();
  }

  /**
   * One attempt: the per-attempt stages (the provider's own limit, a 429 naming its
   * reset before anything is sent; the spend reservation), then the call. Whatever
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
      const opts: SendOptions = { caller: input.caller, timeoutMs: this.deps.upstreamTimeoutMs, providerName: target.providerName, trace: span };
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
        if (target.configId) this.deps.rateUsage?.sent(target.configId, up.response.headers, this.now());
      } catch (err) {
        // No answer: accounted (and counted against the provider's health) before it is thrown.
        throw await this.unanswered(input, target, held, toApiError(err), err, size);
      }
      if (!up.response.ok) {
        const failure = await upstreamFailure(up.response, target.providerName, secretValues(target.credentials));
        up.done();
        throw await this.unanswered(input, target, held, failure);
      }
      let outcome: CallOutcome;
      if (stream) {
        // No body (a 204): the provider's failure, accounted now; the stream's end would never come to account it.
        if (!up.response.body) {
          up.done();
          const empty = new ApiError(502, "provider_error", `${target.providerName} sent an empty stream.`);
          throw await this.unanswered(input, target, held, empty);
        }
        outcome = this.stream(input, target, adapter, up, route, held, size);
      } else {
        const ttfbMs = this.now() - held.sentAtMs;
        let text: string | null;
        try {
          text = await answerText(up.response, this.deps.maxAnswerBytes);
        } catch {
          throw await this.unanswered(input, target, held, unreadAnswer(up, opts), undefined, size);
        } finally {
          up.done();
        }
        // Past the bound, the rest was left unread: the provider's failure, though it read the prompt.
        if (text === null) throw await this.unanswered(input, target, held, new AnswerTooLarge(target.providerName, this.deps.maxAnswerBytes), undefined, size);
        const answered = this.json(input, target, up.response.status, text, ttfbMs, route, held);
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

  /**
   * An attempt that got no answer to use: counted against the provider's health and accounted; gives what to throw.
   * A client that left once its request was sent (`size` given) is charged its prompt, as a cut stream is: the
   * provider read it, and leaving before each answer must not make calls free of a cap. So is an answer too large
   * to read: the provider read the prompt too.
   */
  private async unanswered(
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

  /** A whole answer, read: checked, accounted, and its outcome (at once unless strict durability waits for the store). */
  private json(
    input: CallInput,
    target: Target,
    status: number,
    text: string,
    ttfbMs: number,
    route: Route,
    held: Held,
  ): MaybePromise<JsonOutcome> {
    const body = route.membersOnly && !route.reshape ? jsonObjectMembers(text, route.wire.bodyMembers) : parseObject(text);
    if (body === null) {
      const err = new ApiError(502, "provider_error", `${target.providerName} answered with something that is not a JSON object.`);
      return this.unanswered(input, target, held, err).then(rethrow);
    }
    this.answered(target, ttfbMs, this.now() - held.sentAtMs);
    const usage = route.wire.fromBody(body);
    const substitution = substitutionOf(target, usage);
    const answer = substitution ?? reshapedText(target, text, body, route.reshape);
    const failure = answer instanceof ApiError ? answer : null;
    const caller = typeof answer === "string" ? answer : text;
    // A substituted (or untranslatable) answer was still paid for: its cost is recorded before it is refused.
    const accounted = this.account(input, target, usage, failure, held, status);
    if (accounted instanceof Promise) return accounted.then((cost) => jsonOutcome(target, status, caller, usage, failure, cost));
    return jsonOutcome(target, status, caller, usage, failure, accounted);
  }

  /** The stream's outcome once the provider's headers came: its events tapped for usage, its end accounted. */
  private stream(
    input: CallInput,
    target: Target,
    adapter: ProviderAdapter,
    up: UpstreamResponse,
    route: Route,
    held: Held,
    size: CallSize,
  ): StreamOutcome {
    // Headers arrived: from here the stream runs as long as the provider and the client keep it open.
    up.done();
    const ttfbMs = this.now() - held.sentAtMs;
    const usage = emptyUsage();
    let refused: ApiError | null = null;
    const keep = route.keep;
    let accounted = () => {};
    const pending = new Promise<void>((resolve) => (accounted = resolve));
    // The call's span (the request's) stays open until the stream is accounted.
    const releaseCall = (input.scope.trace ?? NOOP_SPAN).hold();
    this.unaccounted.add(pending);
    /** Answer pieces that passed, each at least one token: what a cut-off stream is charged for at least. */
    let pieces = 0;
    const wire = route.wire;
    const idle = this.idle.watch();
    const ending = new StreamEnding(wire, target, idle, this.idle.idleSeconds);
    const tap: SseTapOptions & { drainMs: number; signal: AbortSignal; maxEventBytes: number; idle?: IdleStream } = {
      onEvent: (e) => {
        const ends = ending.seen(e);
        if (wire.carriesAnswer(e)) pieces++;
        if (wire.fromEvent(e, usage)) {
          refused = substitutionOf(target, usage);
          if (refused) return { stop: wire.errorEvent(refused, e) };
        }
        if (ends === "error") return ending.withoutKey(e);
      },
      keep: keep ? (e) => keep(e.data) : undefined,
      // The provider's stream ended without its closing event: the caller is told, in its format.
      closing: () => ending.closing(usage),
      onEnd: async (clean) => {
        if (idle) this.idle.unwatch(idle);
        const short = ending.failure;
        // A client that leaves on the closing event (the official clients' stream helpers may) left a whole answer.
        const whole = clean || ending.closed;
        const failure = (refused as ApiError | null) ?? short ?? (whole ? null : STREAM_INTERRUPTED);
        // A stream cut or ended short, or without the provider's prompt count (a server that
        // ignores include_usage, a translated stream cut between events), is charged as a cut one is.
        if (failure?.code === "stream_interrupted" || keepCounts(usage).promptTokens === 0) chargeCutStream(usage, size, pieces);
        if (short) this.failed(target, short);
        else if (whole) this.answered(target, ttfbMs, this.now() - held.sentAtMs);
        try {
          await this.account(input, target, usage, failure, held, up.response.status);
        } finally {
          this.unaccounted.delete(pending);
          accounted();
          releaseCall();
        }
      },
      // A refused stream was still paid for: the client gets the error and the end, and
      // the rest is read unseen (at most as long as a provider may take, or until
      // shutdown) for the real usage.
      drainMs: this.deps.upstreamTimeoutMs,
      signal: this.closing.signal,
      maxEventBytes: this.deps.maxAnswerBytes,
    };
    // Checked by forward before anything here waits on the stream's end.
    let body = up.response.body as ReadableStream<Uint8Array>;
    const decoded = adapter.sseBody || route.restream;
    // The idle bound counts the provider's bytes: before a translation, whose output a
    // thinking phase's pings or a host's keep-alive comments never reach.
    if (idle && decoded) body = body.pipeThrough(idleMarker(idle));
    else if (idle) tap.idle = idle;
    if (adapter.sseBody) body = adapter.sseBody(body, this.deps.maxAnswerBytes);
    if (route.restream) body = body.pipeThrough(route.restream(this.deps.maxAnswerBytes, usage));
    return {
      type: "stream",
      status: up.response.status,
      stream: sseTapSource(body, tap),
      servedBy: servedBy(target),
    };
  }

  private answered(target: Target, ttfbMs: number, totalMs: number): void {
    if (target.configId) this.deps.health?.recordSuccess(target.configId, target.model, ttfbMs, totalMs);
  }

  /** Only a failure another provider might not have counts against this one (not the caller's bad request). */
  private failed(target: Target, failure: ApiError): void {
    if (target.configId && isProviderFault(failure)) this.deps.health?.recordFailure(target.configId, target.model, retryAfterMs(failure));
  }

  /**
   * One usage event (a failure's status and code, or the provider's status), and the
   * reservation settled with its cost: at once, unless strict durability waits for the store.
   */
  private account(
    input: CallInput,
    target: Target,
    usage: CallUsage,
    failure: ApiError | null,
    held: Held,
    okStatus = 200,
  ): MaybePromise<number> {
    keepCounts(usage);
    const recorded = this.deps.accountant.record(input.scope, {
      provider: target.kind,
      model: target.model,
      status: failure ? failure.status : okStatus,
      errorCode: failure ? failure.code : null,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      cache: usage.cache,
      feeMicros: usage.feeMicros,
    });
    return recorded instanceof Promise
      ? recorded.then((cost) => this.settle(input, target, usage, failure, held, cost))
      : this.settle(input, target, usage, failure, held, recorded);
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
