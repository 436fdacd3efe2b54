/**
 * Server-sent events, read and written in one place. Every provider stream goes
 * through this module: the decoder is incremental (chunks may split anywhere, even
 * inside a UTF-8 character or a CRLF), understands `data:`-only and `event:`+`data:`
 * streams, and tells a clean end from a cut-off one. The tap that relays a provider's
 * stream while reading it is sse-tap.ts.
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
