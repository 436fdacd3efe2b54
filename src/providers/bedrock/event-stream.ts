/**
 * The cloud platform's binary event stream (application/vnd.amazon.eventstream) turned
 * into the same server-sent events the vendor sends. Each frame is decoded by the
 * AWS codec (CRC checks, headers); a `chunk` event's payload is `{"bytes": base64}`
 * holding one messages-format event, re-emitted as `event: <type>` with its JSON as is.
 */
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { encodeSse, MAX_EVENT_CHARS, SseEventTooLarge } from "../../lib/sse.ts";
import { exceptionMessage, streamErrorType } from "./stream-exceptions.ts";

/** Frames start with their total length (4 bytes, big-endian); the codec decodes whole frames. */
const PRELUDE_TOTAL_LENGTH = 4;

function errorEvent(message: string, type = "api_error"): Uint8Array {
  return encodeSse({ event: "error", data: JSON.stringify({ type: "error", error: { type, message } }) });
}

/**
 * The binary frames as SSE. A frame longer than `maxFrameBytes` (its length is its first
 * four bytes) errors the stream (SseEventTooLarge) before any of it is gathered, as an SSE
 * event past the bound does.
 */
export function eventStreamToSse(maxFrameBytes = MAX_EVENT_CHARS): TransformStream<Uint8Array, Uint8Array> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  /** Bytes of the frames not yet whole, as they came: joined only once the next frame is whole. */
  let pieces: Uint8Array[] = [];
  let held = 0;
  /** Bytes the next frame needs before it can be decoded: its prelude, then its whole length. */
  let needed = PRELUDE_TOTAL_LENGTH;
  const emit = (frame: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => {
    const message = codec.decode(frame);
    const kind = message.headers[":message-type"]?.value;
    if (kind === "exception" || kind === "error") {
      const type = String(message.headers[":exception-type"]?.value ?? message.headers[":error-code"]?.value ?? "error");
      const text = exceptionMessage(toUtf8(message.body)) || String(message.headers[":error-message"]?.value ?? "");
      controller.enqueue(errorEvent(`${type}: ${text}`, streamErrorType(type)));
      return;
    }
    if (message.headers[":event-type"]?.value !== "chunk") return;
    const payload = JSON.parse(toUtf8(message.body)) as { bytes?: string };
    if (!payload.bytes) return;
    const json = Buffer.from(payload.bytes, "base64").toString("utf8");
    const type = (JSON.parse(json) as { type?: string }).type ?? "message";
    controller.enqueue(encodeSse({ event: type, data: json }));
  };
  return new TransformStream({
    transform(chunk, controller) {
      pieces.push(chunk);
      held += chunk.byteLength;
      // Joining on every chunk copied a long frame again for each of its pieces.
      if (held < needed) return;
      const joined = pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces, held);
      let offset = 0;
      needed = PRELUDE_TOTAL_LENGTH;
      while (joined.length - offset >= PRELUDE_TOTAL_LENGTH) {
        const total = new DataView(joined.buffer, joined.byteOffset + offset, PRELUDE_TOTAL_LENGTH).getUint32(0);
        if (total > maxFrameBytes) throw new SseEventTooLarge(maxFrameBytes);
        if (joined.length - offset < total) {
          needed = total;
          break;
        }
        try {
          emit(joined.subarray(offset, offset + total), controller);
        } catch (err) {
          controller.enqueue(errorEvent(`undecodable event from the platform: ${(err as Error).message}`));
          controller.terminate();
          return;
        }
        offset += total;
      }
      const rest = joined.subarray(offset);
      pieces = rest.byteLength > 0 ? [rest] : [];
      held = rest.byteLength;
    },
    flush(controller) {
      if (held > 0) controller.enqueue(errorEvent("the platform's stream ended in the middle of an event"));
    },
  });
}
