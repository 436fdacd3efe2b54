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

export class SseDecoder {
  private readonly text = new TextDecoder();
  private buffer = "";
  private event: string | null = null;
  private data: string[] = [];
  private id: string | null = null;
  private blockStart = 0;
  private scanned = 0;

  push(chunk: Uint8Array): SseBlock[] {
    this.buffer += this.text.decode(chunk, { stream: true });
    return this.drain(false);
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
    LINE_END.lastIndex = this.scanned;
    for (;;) {
      const m = LINE_END.exec(this.buffer);
      if (!m) break;
      // A lone CR at the very end may be half of a CRLF still on its way.
      if (!final && m[0] === "\r" && m.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(this.scanned, m.index);
      this.scanned = m.index + m[0].length;
      if (line === "") {
        out.push({ raw: this.buffer.slice(this.blockStart, this.scanned), event: this.dispatch() });
        this.blockStart = this.scanned;
      } else {
        this.field(line);
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

  private field(line: string): void {
    if (line.charCodeAt(0) === 58 /* : comment */) return;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (name === "data") this.data.push(value);
    else if (name === "event") this.event = value;
    else if (name === "id") this.id = value;
  }

  private dispatch(): SseEvent | null {
    const e = this.data.length ? { event: this.event, data: this.data.join("\n"), id: this.id } : null;
    this.event = null;
    this.data = [];
    this.id = null;
    return e;
  }
}

const encoder = new TextEncoder();

/** One event in wire form; multi-line data becomes several `data:` lines. */
export function encodeSse(e: { event?: string; data: string }): Uint8Array {
  const head = e.event ? `event: ${e.event}\n` : "";
  return encoder.encode(`${head}${e.data.split("\n").map((l) => `data: ${l}`).join("\n")}\n\n`);
}

/** What an observer may answer for an event: end the stream here, sending `bytes` instead of the event. */
export interface StopStream {
  stop: Uint8Array;
}

export interface SseTapOptions {
  /** Called for every event, in order, before its bytes are forwarded. Returning `{stop}` ends the stream there. */
  onEvent(e: SseEvent): void | StopStream;
  /** Called once when the upstream ends (clean), or is cut off, cancelled or stopped (not clean); the stream's end waits for it. */
  onEnd?(clean: boolean): void | Promise<void>;
  /**
   * Drops events for which this returns false. Without it, chunks pass through byte
   * for byte as they arrive; with it, each complete block is forwarded as received.
   */
  keep?(e: SseEvent): boolean;
}

/**
 * A pass-through transform that reads a stream's events on the side without
 * re-encoding them. Each chunk is decoded before it is forwarded, so an observer can
 * stop the stream before a bad event reaches the client.
 */
export function sseTap(opts: SseTapOptions): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new SseDecoder();
  let ended = false;
  const finish = (clean: boolean) => {
    if (ended) return;
    ended = true;
    return opts.onEnd?.(clean);
  };
  const forward = (b: SseBlock, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (!b.event || !opts.keep || opts.keep(b.event)) controller.enqueue(encoder.encode(b.raw));
  };
  /** Observes the blocks; returns the index of a block that stopped the stream, with its replacement. */
  const observe = (blocks: SseBlock[]): { at: number; stop: Uint8Array } | null => {
    for (let i = 0; i < blocks.length; i++) {
      const e = blocks[i]?.event;
      const verdict = e ? opts.onEvent(e) : undefined;
      if (verdict) return { at: i, stop: verdict.stop };
    }
    return null;
  };
  // `cancel` (the reader went away: a client disconnect) is in the Streams spec but not yet in the DOM typings.
  const transformer: Transformer<Uint8Array, Uint8Array> & { cancel(): void | Promise<void> } = {
    transform(chunk, controller) {
      if (ended) return;
      const blocks = decoder.push(chunk);
      const stopped = observe(blocks);
      if (!stopped) {
        if (opts.keep) for (const b of blocks) forward(b, controller);
        else controller.enqueue(chunk);
        return;
      }
      for (const b of blocks.slice(0, stopped.at)) forward(b, controller);
      controller.enqueue(stopped.stop);
      controller.terminate();
      return finish(false);
    },
    flush(controller) {
      if (ended) return;
      const { blocks, clean } = decoder.end();
      const stopped = observe(blocks);
      for (const b of stopped ? blocks.slice(0, stopped.at) : blocks) forward(b, controller);
      if (stopped) controller.enqueue(stopped.stop);
      return finish(clean && !stopped);
    },
    cancel() {
      return finish(false);
    },
  };
  return new TransformStream<Uint8Array, Uint8Array>(transformer);
}
