/**
 * What an attempt's stream becomes once the provider's headers came (forward.ts): its bytes
 * under the idle bound (stream-idle.ts), decoded or translated for the caller, and tapped
 * (lib/sse-tap.ts) for usage, a substituted model and how it ended (stream-end.ts); its end
 * accounted (attempt-accounting.ts). It keeps the streams not accounted yet, so shutdown
 * can wait for them.
 */
import type { ApiError } from "../lib/errors.ts";
import { type SseTapOptions, sseTapSource } from "../lib/sse-tap.ts";
import { NOOP_SPAN } from "../lib/tracing/trace-span.ts";
import type { ProviderAdapter } from "../providers/adapter.ts";
import { servedBy, type Target } from "../providers/target.ts";
import type { UpstreamResponse } from "../providers/upstream.ts";
import { emptyUsage } from "../providers/wire-format.ts";
import type { AttemptAccounting, Held } from "./attempt-accounting.ts";
import type { Route } from "./call-route.ts";
import type { CallInput, StreamOutcome } from "./call-types.ts";
import { chargeCutStream, keepCounts, STREAM_INTERRUPTED, substitutionOf } from "./provider-answer.ts";
import type { CallSize } from "./reserve-spend.ts";
import { StreamEnding } from "./stream-end.ts";
import { type IdleStream, idleMarker, StreamIdleWatch } from "./stream-idle.ts";

export interface StreamDeps {
  /** How long a provider may take (GW_UPSTREAM_TIMEOUT_S): its headers, and the unseen read of a refused stream's rest. */
  upstreamTimeoutMs: number;
  /** A running stream whose provider sends no byte for this long is ended (GW_STREAM_IDLE_TIMEOUT_S); absent or 0: no bound. */
  streamIdleTimeoutMs?: number;
  /** The most of a provider's answer read, in bytes: a whole answer, or one stream event (GW_MAX_ANSWER_BYTES). */
  maxAnswerBytes: number;
}

export class StreamOutcomes {
  /** Aborted at shutdown: ends the background reads of refused streams at once. */
  private readonly closing = new AbortController();
  /** Streams whose call is not accounted yet: a count, not a promise each (a stream's set-up runs before its first byte). */
  private unaccounted = 0;
  /** Set by `stop` while streams are still unaccounted: called when the last of them is. */
  private allAccounted: (() => void) | null = null;
  /** The idle bound on running streams: one sweep for all of them. */
  private readonly idle: StreamIdleWatch;

  constructor(
    private readonly deps: StreamDeps,
    private readonly accounts: AttemptAccounting,
    private readonly now: () => number,
  ) {
    this.idle = new StreamIdleWatch(deps.streamIdleTimeoutMs ?? 0);
  }

  /** The drain deadline passed: every running stream ends with its caller's terminal error event (stream-idle.ts). */
  cutAll(): number {
    return this.idle.cutAll();
  }

  /** Shutdown: refused streams stop draining, and this resolves once every stream's call is accounted. */
  async stop(): Promise<void> {
    this.closing.abort();
    // The idle bound still ends stalled streams meanwhile; then its sweep stops.
    if (this.unaccounted > 0) await new Promise<void>((resolve) => (this.allAccounted = resolve));
    this.idle.stop();
  }

  /** The stream's outcome once the provider's headers came: its events tapped for usage, its end accounted. */
  outcome(
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
    // The call's span (the request's) stays open until the stream is accounted.
    const releaseCall = (input.scope.trace ?? NOOP_SPAN).hold();
    this.unaccounted++;
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
        // A stream cut or ended short (by an error event too), or without the provider's prompt
        // count (a server that ignores include_usage, a translated stream cut between events),
        // is charged as a cut one is.
        if (short || failure?.code === "stream_interrupted" || keepCounts(usage).promptTokens === 0) chargeCutStream(usage, size, pieces);
        if (short) this.accounts.failed(target, short);
        else if (whole) this.accounts.answered(target, ttfbMs, this.now() - held.sentAtMs);
        // Counted now rather than when its headers came: not before the first byte (forward.ts).
        this.accounts.sent(target, up.response.headers);
        try {
          await this.accounts.account(input, target, usage, failure, held, up.response.status, size.maxFeeMicros);
        } finally {
          if (--this.unaccounted === 0) this.allAccounted?.();
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
    if (route.restream) body = body.pipeThrough(route.restream(this.deps.maxAnswerBytes, usage, () => ending.interrupted()));
    return {
      type: "stream",
      status: up.response.status,
      stream: sseTapSource(body, tap),
      servedBy: servedBy(target),
    };
  }
}
