/**
 * How one provider stream ends, as the tap sees it (stream-outcome.ts): whether its closing or an
 * error event came, what the caller is written after the provider's last event when
 * neither did, and why such a call was not whole (it stalled past the idle bound or was
 * cut by the shutdown's drain, lost its closing event, or the provider sent an error event). An error event is relayed
 * without the caller's provider key.
 */
import { ApiError } from "../lib/errors.ts";
import { type SseEvent, sseText } from "../lib/sse.ts";
import type { ReplaceEvent } from "../lib/sse-tap.ts";
import { secretValues } from "../providers/credentials.ts";
import type { Target } from "../providers/target.ts";
import { providerFailure } from "../providers/provider-failure.ts";
import { withoutSecrets } from "../providers/upstream.ts";
import type { CallUsage, StreamEnd, WireFormat } from "../providers/wire-format.ts";
import type { IdleStream } from "./stream-idle.ts";

export class StreamEnding {
  private end: StreamEnd = null;
  /** The last two events: read only at the end, for a stop reason that came before a lost closing event. */
  private previous: SseEvent | null = null;
  private last: SseEvent | null = null;
  private short: ApiError | null = null;

  constructor(
    private readonly wire: WireFormat,
    private readonly target: Target,
    readonly idle: IdleStream | null,
    private readonly idleSeconds: number,
  ) {}

  /**
   * Every event, as it passes: whether it ends the stream (told by its name or a substring,
   * never parsed). An error event, parsed, is the call's failure: the one the same error
   * answered whole would be (upstream.ts), unless a translation already said the stream ended
   * early, or the idle bound ended it.
   */
  seen(e: SseEvent): StreamEnd {
    this.previous = this.last;
    this.last = e;
    const ends = this.wire.streamEnd(e);
    if (ends !== null) this.end = ends;
    // After a stall the error event is the one a translation wrote for it: the call stays a stall.
    if (ends === "error" && this.short === null && !this.idle?.fired) {
      const { status, message } = this.wire.errorOf(e);
      const said = withoutSecrets(message, secretValues(this.target.credentials)).slice(0, 1000);
      this.short = providerFailure(status, said, this.target.providerName, undefined, "stream event");
    }
    return ends;
  }

  /**
   * A translation ended the caller's stream itself, with its own error event, because the
   * provider's ended before its last event: recorded as a native stream's is (`closing`).
   * A stall the idle bound ended stays a stall.
   */
  interrupted(): void {
    if (this.short === null && !this.idle?.fired) this.short = this.interruption();
  }

  /** The closing event came: the answer is whole, whatever happens to the stream after it (a client may leave on it). */
  get closed(): boolean {
    return this.end === "done";
  }

  /** An error event as the caller may see it: without the provider's key, which it may quote as error answers may. */
  withoutKey(e: SseEvent): ReplaceEvent | undefined {
    const data = withoutSecrets(e.data, secretValues(this.target.credentials));
    return data === e.data ? undefined : { replace: sseText({ event: e.event, data }) };
  }

  /**
   * What follows the provider's last event (the tap's `closing`): nothing after its closing
   * or an error event; else the caller's terminal error, unless the answer said how it
   * finished (then the closing event it lost, as behind some proxies).
   */
  closing(usage: CallUsage): Uint8Array | null {
    if (this.end !== null) return null;
    if (this.idle?.fired) this.short = this.stalled();
    else {
      const closed = this.wire.closingFor(usage, [this.previous, this.last]);
      if (closed) return closed;
      this.short = this.interruption();
    }
    return this.wire.errorEvent(this.short, this.last ?? undefined, true);
  }

  /**
   * Why the call was not whole, once the stream ended: it stalled (whether the tap wrote the
   * error, or a translation ended the caller's stream itself), or the provider ended it short.
   */
  get failure(): ApiError | null {
    return this.idle?.fired ? (this.short ?? this.stalled()) : this.short;
  }

  private interruption(): ApiError {
    return new ApiError(
      502,
      "stream_interrupted",
      `${this.target.providerName}'s stream ended before its last event; the answer is incomplete.`,
    );
  }

  private stalled(): ApiError {
    // Not the provider's fault: 499 as a stream cut any other way, so its health is not marked down.
    if (this.idle?.byShutdown)
      return new ApiError(
        499,
        "stream_interrupted",
        "The gateway is shutting down and its drain deadline passed; the stream was ended before the answer was complete (GW_DRAIN_TIMEOUT_S).",
      );
    return new ApiError(
      504,
      "stream_interrupted",
      `${this.target.providerName} sent nothing for ${this.idleSeconds} s; the stream was ended (GW_STREAM_IDLE_TIMEOUT_S).`,
    );
  }
}
