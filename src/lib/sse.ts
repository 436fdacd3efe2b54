/**
 * Server-sent events, read and written in one place. Every provider stream goes
 * through this module: the decoder is incremental (chunks may split anywhere, even
 * inside a UTF-8 character or a CRLF), understands `data:`-only and `event:`+`data:`
 * streams, and tells a clean end from a cut-off one.
 */

export interface SseEvent {
  event: string | null;
  /** Data lines joined with "\n". */
  data: string;
  id: string | null;
}

/** One blank-line-terminated block exactly as received, and the event it carries (null for comment-only blocks). */
export interface SseBlock {
  raw: string;
  event: SseEvent | null;
}

const LINE_END = /\r\n|\r|\n/g;
const STREAM = { stream: true };

/**
 * The longest event held, in characters, unless a decoder is given its own (the tap is
 * given GW_MAX_ANSWER_BYTES, whose default config.ts takes from here): an event cannot
 * legitimately be longer than a whole answer.
 */
export const MAX_EVENT_CHARS = 256 * 1024 * 1024;

/** An event still unfinished past its decoder's bound: a provider that never ends one would fill the memory. */
export class SseEventTooLarge extends Error {
  constructor(max: number) {
    super(`a stream event grew past ${max} characters`);
    this.name = "SseEventTooLarge";
  }
}

export class SseDecoder {
  private readonly text = new TextDecoder();
  private buffer = "";
  private event: string | null = null;
  private data: string[] = [];
  private id: string | null = null;
  private blockStart = 0;
  private scanned = 0;

  constructor(private readonly maxEventChars = MAX_EVENT_CHARS) {}

  /** Nothing is held back: every byte pushed so far ended a block. */
  get idle(): boolean {
    return this.buffer === "";
  }

  /** The blocks `chunk` completed; throws SseEventTooLarge when one of them, or the block it leaves unfinished, is past the bound. */
  push(chunk: Uint8Array): SseBlock[] {
    this.buffer += this.text.decode(chunk, STREAM);
    const blocks = this.drain(false);
    // What is left is the unfinished block alone (drain keeps nothing else).
    if (this.buffer.length > this.maxEventChars) throw new SseEventTooLarge(this.maxEventChars);
    return blocks;
  }

  /** Flushes the end of the stream. `clean` is false when it stopped inside a block. */
  end(): { blocks: SseBlock[]; clean: boolean } {
    this.buffer += this.text.decode();
    const blocks = this.drain(true);
    const clean = this.buffer.slice(this.blockStart).trim() === "";
    this.buffer = "";
    this.blockStart = this.scanned = 0;
    return { blocks, clean };
  }

  private drain(final: boolean): SseBlock[] {
    const out: SseBlock[] = [];
    // Most streams end lines with LF only: then a line ends at the next "\n", found
    // natively, and the regular expression (which also knows CR and CRLF) is not needed.
    const lfOnly = this.buffer.indexOf("\r", this.scanned) < 0;
    LINE_END.lastIndex = this.scanned;
    for (;;) {
      let end: number;
      let length = 1;
      if (lfOnly) {
        end = this.buffer.indexOf("\n", this.scanned);
        if (end < 0) break;
      } else {
        const m = LINE_END.exec(this.buffer);
        if (!m) break;
        // A lone CR at the very end may be half of a CRLF still on its way.
        if (!final && m[0] === "\r" && m.index === this.buffer.length - 1) break;
        end = m.index;
        length = m[0].length;
      }
      const start = this.scanned;
      this.scanned = end + length;
      if (end === start) {
        // An event past the bound is refused however it came, whole in one chunk or not (at the
        // end, what is left was within it after the last push: end() never throws).
        if (!final && this.scanned - this.blockStart > this.maxEventChars) throw new SseEventTooLarge(this.maxEventChars);
        out.push({ raw: this.buffer.slice(this.blockStart, this.scanned), event: this.dispatch() });
        this.blockStart = this.scanned;
      } else {
        this.field(start, end);
      }
    }
    // Keep only the unfinished block, so the buffer never grows with the stream.
    if (this.blockStart > 0) {
      this.buffer = this.buffer.slice(this.blockStart);
      this.scanned -= this.blockStart;
      this.blockStart = 0;
    }
    return out;
  }

  /** The line from `start` to `end` of the buffer, read in place: only its value is cut out. */
  private field(start: number, end: number): void {
    const b = this.buffer;
    if (b.charCodeAt(start) === 58 /* : comment */) return;
    // The usual line first: `data:` (one test of the buffer, no copy of the line or its name).
    if (b.startsWith("data:", start)) {
      this.data.push(this.value(start + 5, end));
      return;
    }
    let colon = b.indexOf(":", start);
    if (colon < 0 || colon > end) colon = end;
    const name = b.slice(start, colon);
    const value = colon === end ? "" : this.value(colon + 1, end);
    if (name === "data") this.data.push(value);
    else if (name === "event") this.event = value;
    else if (name === "id") this.id = value;
  }

  /** A field's value: after its colon, less one leading space. */
  private value(from: number, end: number): string {
    return this.buffer.slice(this.buffer.charCodeAt(from) === 32 ? from + 1 : from, end);
  }

  private dispatch(): SseEvent | null {
    const n = this.data.length;
    const e = n ? { event: this.event, data: n === 1 ? (this.data[0] as string) : this.data.join("\n"), id: this.id } : null;
    this.event = null;
    if (n) this.data = [];
    this.id = null;
    return e;
  }
}

const encoder = new TextEncoder();
const LF = 10;

/** One event in wire form, as text; multi-line data becomes several `data:` lines. */
export function sseText(e: { event?: string | null; data: string }): string {
  const head = e.event ? `event: ${e.event}\n` : "";
  return `${head}${e.data
    .split("\n")
    .map((l) => `data: ${l}`)
    .join("\n")}\n\n`;
}

/** One event in wire form. */
export function encodeSse(e: { event?: string | null; data: string }): Uint8Array {
  return encoder.encode(sseText(e));
}

/** What an observer may answer for an event: end the stream here, sending `bytes` instead of the event. */
export interface StopStream {
  stop: Uint8Array;
}

/** Or: send this text (whole blocks) in place of the event, and go on. */
export interface ReplaceEvent {
  replace: string;
}

/** A stream's provider bytes under an idle bound (pipeline/stream-idle.ts): each chunk marks the tick it came in. */
export interface IdleMark {
  readonly clock: { readonly tick: number };
  seen: number;
  cancel: () => void;
}

export interface SseTapOptions {
  /**
   * Called for every event, in order, before its bytes are forwarded. Returning `{stop}`
   * ends the stream there; `{replace}` sends other text in the event's place.
   */
  onEvent(e: SseEvent): void | StopStream | ReplaceEvent;
  /**
   * Called once when the provider's stream ends (not after a stop, nor when it is cut
   * off): what to write last, before the client's stream ends (a closing event the
   * provider left out, or an error in the caller's format), or null.
   */
  closing?(): Uint8Array | null;
  /**
   * Called once when the upstream ends (clean), or is cut off, cancelled or stopped
   * (not clean); the stream's end waits for it, except after a stop, where it
   * follows the background drain.
   */
  onEnd?(clean: boolean): void | Promise<void>;
  /**
   * Drops events for which this returns false: a chunk of whole blocks that are all kept
   * still passes byte for byte, and otherwise the complete blocks kept are forwarded as
   * received.
   */
  keep?(e: SseEvent): boolean;
}

/**
 * `source` with its events read on the side, as the client's stream. Each chunk is
 * decoded and observed before it is forwarded, so an observer can stop the stream
 * before a bad event reaches the client, or replace an event. Whole events only are
 * forwarded: a chunk of whole blocks passes byte for byte, one for one (almost every
 * chunk of a provider's stream), and an event split across chunks passes once whole, so
 * no part of one goes out before it was seen. The client's reads pull the source
 * directly (no pipe and no transform stream between them: each costs promises on every
 * chunk). With `idle`, each chunk marks the tick it came in, and `idle.cancel` ends the
 * source as if the provider had ended it.
 *
 * After a stop the client gets the replacement and the end at once, but the rest of
 * the source is read in the background, observed and never forwarded, for at most
 * `drainMs` (or until `signal` aborts: shutdown), so what comes after the stop (a
 * provider's final usage) is still seen; `onEnd(false)` follows the drain. A client
 * that goes away cancels the source at once.
 */
export function sseTapSource(
  source: ReadableStream<Uint8Array>,
  opts: SseTapOptions & { drainMs: number; signal?: AbortSignal; maxEventBytes?: number; idle?: IdleMark },
): ReadableStream<Uint8Array> {
  const decoder = new SseDecoder(opts.maxEventBytes);
  const reader = source.getReader();
  const idle = opts.idle;
  // Cancelling ends a pending read with `done`: the stream then ends as the provider's end does.
  if (idle) idle.cancel = () => void reader.cancel().catch(() => {});
  /** An event of the chunk being forwarded was replaced: the chunk's blocks are written again. */
  let rewritten = false;
  let ended = false;
  const finish = (clean: boolean) => {
    if (ended) return;
    ended = true;
    return opts.onEnd?.(clean);
  };
  /** The blocks `keep` lets through, as one chunk (null when none). */
  const kept = (blocks: SseBlock[]): Uint8Array | null => {
    let raw = "";
    for (const b of blocks) if (!b.event || !opts.keep || opts.keep(b.event)) raw += b.raw;
    return raw === "" ? null : encoder.encode(raw);
  };
  /**
   * What a chunk forwards: itself when it holds whole blocks only (nothing carried in,
   * nothing left over, ending in a line feed, so no half character is held either) and
   * `keep` drops none of them, as almost every chunk of a provider's stream does;
   * otherwise the kept blocks, encoded again.
   */
  const forwarded = (chunk: Uint8Array, blocks: SseBlock[], whole: boolean): Uint8Array | null => {
    const keep = opts.keep;
    if (
      !rewritten &&
      whole &&
      decoder.idle &&
      chunk[chunk.byteLength - 1] === LF &&
      (!keep || blocks.every((b) => !b.event || keep(b.event)))
    )
      return chunk;
    rewritten = false;
    return kept(blocks);
  };
  /** Observes the blocks (replacing those the observer rewrites); returns the index of a block that stopped the stream, with its replacement. */
  const observe = (blocks: SseBlock[]): { at: number; stop: Uint8Array } | null => {
    for (let i = 0; i < blocks.length; i++) {
      const e = blocks[i]?.event;
      const verdict = e ? opts.onEvent(e) : undefined;
      if (!verdict) continue;
      if ("stop" in verdict) return { at: i, stop: verdict.stop };
      blocks[i] = { raw: verdict.replace, event: e ?? null };
      rewritten = true;
    }
    return null;
  };
  /** After a stop: events are still observed, but nothing is forwarded and nothing can stop again. */
  const observeOnly = (blocks: SseBlock[]) => {
    for (const b of blocks) if (b.event) opts.onEvent(b.event);
  };
  /** Reads what is left of the source after a stop, observing only; then the tap ends (not clean). */
  const drain = async (): Promise<void> => {
    // Cancelling ends a pending read with `done`, so a provider that never finishes cannot hold the call open.
    const cancel = () => void reader.cancel().catch(() => {});
    const timer = setTimeout(cancel, opts.drainMs);
    opts.signal?.addEventListener("abort", cancel, { once: true });
    if (opts.signal?.aborted) cancel();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        observeOnly(decoder.push(value));
      }
      observeOnly(decoder.end().blocks);
    } catch {
      // The provider cut the rest off, or sent an event past the bound: what was observed is all there is.
      cancel();
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", cancel);
    }
    await finish(false);
  };
  /** Cuts the client's stream once the call is accounted (as not clean). */
  const cut = async (controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> => {
    try {
      await finish(false);
    } finally {
      // Without a reason: Bun's server prints an errored body's reason (a stack on stderr for
      // every cut stream, the provider's address in it); the client sees its stream cut either way.
      controller.error();
    }
  };
  /** Forwards what came before the stopping block, then the replacement, and ends the client's stream. */
  const stop = (controller: ReadableStreamDefaultController<Uint8Array>, blocks: SseBlock[], verdict: { at: number; stop: Uint8Array }) => {
    const before = kept(blocks.slice(0, verdict.at));
    if (before) controller.enqueue(before);
    controller.enqueue(verdict.stop);
    controller.close();
    observeOnly(blocks.slice(verdict.at + 1));
  };
  return new ReadableStream<Uint8Array>(
    {
      // Each pull enqueues something (or ends the stream): Bun's response writer does not
      // pull again after a pull that enqueued nothing, as when a chunk ends mid-event.
      async pull(controller) {
        for (;;) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch {
            // The provider cut the stream: the client's is cut too, once the call is accounted.
            return cut(controller);
          }
          if (next.done) {
            const { blocks, clean } = decoder.end();
            const verdict = observe(blocks);
            if (verdict) stop(controller, blocks, verdict);
            else {
              rewritten = false;
              const rest = kept(blocks);
              if (rest) controller.enqueue(rest);
              const last = opts.closing?.();
              if (last) controller.enqueue(last);
            }
            // The client's stream ends once the call is accounted.
            try {
              await finish(clean && !verdict);
            } finally {
              if (!verdict) controller.close();
            }
            return;
          }
          if (idle) idle.seen = idle.clock.tick;
          const whole = decoder.idle;
          let blocks: SseBlock[];
          try {
            blocks = decoder.push(next.value);
          } catch {
            // An event past the bound: the rest is not read, and the stream ends as a cut one.
            void reader.cancel().catch(() => {});
            return cut(controller);
          }
          const verdict = observe(blocks);
          if (verdict) {
            stop(controller, blocks, verdict);
            void drain().catch(() => {
              // onEnd reports its own failures; nothing is left to send anyone here.
            });
            return;
          }
          const out = forwarded(next.value, blocks, whole);
          if (out && out.byteLength > 0) {
            controller.enqueue(out);
            return;
          }
        }
      },
      cancel() {
        // The client went away: the provider's answer is no longer wanted.
        void reader.cancel().catch(() => {});
        return finish(false);
      },
    },
    // Nothing is read ahead of the client: each of its reads pulls one chunk.
    { highWaterMark: 0 },
  );
}
