/**
 * The idle bound on providers' streams (GW_STREAM_IDLE_TIMEOUT_S): a stream from which the
 * provider sent no byte for that long is ended, so a provider that sends its headers and
 * then nothing cannot hold a call (its client, its spend reservation, shutdown) open. The
 * shutdown's drain deadline ends every stream still running the same way (`cutAll`), so
 * its caller gets the same terminal error event.
 */

/** One provider stream under watch: the tick of its last byte, and how to end it. */
export interface IdleStream {
  readonly clock: IdleClock;
  /** `clock.tick` when the provider last sent a byte: written on every chunk, so a plain field. */
  seen: number;
  /** Set by whoever reads the provider's bytes: ends the stream as if the provider had ended it. */
  cancel: () => void;
  /** The bound passed, or the shutdown's drain cut it, and the stream was ended. */
  fired: boolean;
  /** It was the shutdown that ended it (`cutAll`), not the provider's silence. */
  byShutdown: boolean;
  /** Its place in the watch's list; -1 once let go of. */
  index: number;
}

/** What a chunk reads: a counter the sweeper advances, so no chunk reads the clock. */
export interface IdleClock {
  readonly tick: number;
}

/** The longest between two sweeps: a stalled stream ends at most this long after its bound. */
const MAX_SWEEP_MS = 1000;

/**
 * The open streams, swept by one interval while any is open (it stops at the first sweep
 * that finds none, so streams one after another do not start and stop a timer each), as
 * upstream.ts watches calls waiting for their headers: a timer or a promise
 * per chunk would cost the hot path more than the rest of the relay does. Each sweep
 * advances the tick; a stream whose last byte is more than the bound's ticks behind is
 * ended. It is never ended before the bound, and at most one sweep after it.
 */
export class StreamIdleWatch implements IdleClock {
  tick = 0;
  private readonly open: IdleStream[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly sweepMs: number;
  private readonly idleTicks: number;

  /** `idleMs` 0: no bound (`watch` gives null). */
  constructor(private readonly idleMs: number) {
    this.sweepMs = Math.max(50, Math.min(MAX_SWEEP_MS, Math.floor(idleMs / 4)));
    this.idleTicks = Math.ceil(idleMs / this.sweepMs);
  }

  /** The bound in seconds, as the setting says it (for the caller's error). */
  get idleSeconds(): number {
    return this.idleMs / 1000;
  }

  /** Whether the sweep's interval is running (only while a stream is watched). */
  get sweeping(): boolean {
    return this.timer !== null;
  }

  /** A stream to watch from now on. Without a bound it is only kept for the shutdown's cut: nothing sweeps. */
  watch(): IdleStream {
    const s: IdleStream = { clock: this, seen: this.tick, cancel: () => {}, fired: false, byShutdown: false, index: this.open.length };
    this.open.push(s);
    if (!this.timer && this.idleMs > 0) {
      this.timer = setInterval(() => this.sweep(), this.sweepMs);
      this.timer.unref();
    }
    return s;
  }

  /** The stream ended (or its client left): no longer watched. */
  unwatch(s: IdleStream): void {
    const i = s.index;
    if (i < 0) return;
    const last = this.open.pop() as IdleStream;
    if (last !== s) {
      this.open[i] = last;
      last.index = i;
    }
    s.index = -1;
  }

  /**
   * The shutdown's drain deadline (or a second signal): every stream still open is ended
   * as a stalled one is, so its caller gets its format's terminal `stream_interrupted`
   * event rather than a connection closed mid-answer. Returns how many were.
   */
  cutAll(): number {
    const cut = this.open.length;
    while (this.open.length > 0) {
      const s = this.open[this.open.length - 1] as IdleStream;
      s.fired = true;
      s.byShutdown = true;
      this.unwatch(s);
      s.cancel();
    }
    return cut;
  }

  /** Shutdown: no interval left running (it is unreferenced meanwhile, so it never holds the process). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private sweep(): void {
    this.tick++;
    // Backwards, so a stream swapped into a freed place has been looked at already.
    for (let i = this.open.length - 1; i >= 0; i--) {
      const s = this.open[i] as IdleStream;
      // More than the bound's ticks: the last byte came at least `idleMs` ago, whenever in its tick it came.
      if (this.tick - s.seen <= this.idleTicks) continue;
      s.fired = true;
      this.unwatch(s);
      s.cancel();
    }
    if (this.open.length === 0) this.stop();
  }
}

/**
 * The provider's bytes marked as they pass, for a stream translated or decoded before the
 * tap (which marks a native stream's chunks itself). Ending it closes what follows, so the
 * translation writes its own end, and cancels the provider's body.
 */
export function idleMarker(s: IdleStream): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    start(controller) {
      s.cancel = () => controller.terminate();
    },
    transform(chunk, controller) {
      s.seen = s.clock.tick;
      controller.enqueue(chunk);
    },
  });
}
