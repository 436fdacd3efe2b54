/**
 * The cloud platform's binary event stream (application/vnd.amazon.eventstream) turned
 * into the same server-sent events the vendor sends. Each frame is decoded by the
 * AWS codec (CRC checks, headers); a `chunk` event's payload is `{"bytes": base64}`
 * holding one messages-format event, re-emitted as `event: <type>` with its JSON as is.
 */
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { encodeSse } from "../../lib/sse.ts";

/** Frames start with their total length (4 bytes, big-endian); the codec decodes whole frames. */
const PRELUDE_TOTAL_LENGTH = 4;

function errorEvent(message: string): Uint8Array {
  return encodeSse({ event: "error", data: JSON.stringify({ type: "error", error: { type: "api_error", message } }) });
}

export function eventStreamToSse(): TransformStream<Uint8Array, Uint8Array> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let pending = new Uint8Array(0);
  const emit = (frame: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => {
    const message = codec.decode(frame);
    const kind = message.headers[":message-type"]?.value;
    if (kind === "exception" || kind === "error") {
      const type = message.headers[":exception-type"]?.value ?? message.headers[":error-code"]?.value ?? "error";
      controller.enqueue(errorEvent(`${String(type)}: ${toUtf8(message.body) || String(message.headers[":error-message"]?.value ?? "")}`));
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
      const joined = new Uint8Array(pending.length + chunk.length);
      joined.set(pending);
      joined.set(chunk, pending.length);
      let offset = 0;
      while (joined.length - offset >= PRELUDE_TOTAL_LENGTH) {
        const total = new DataView(joined.buffer, joined.byteOffset + offset, PRELUDE_TOTAL_LENGTH).getUint32(0);
        if (joined.length - offset < total) break;
        try {
          emit(joined.subarray(offset, offset + total), controller);
        } catch (err) {
          controller.enqueue(errorEvent(`undecodable event from the platform: ${(err as Error).message}`));
          controller.terminate();
          return;
        }
        offset += total;
      }
      pending = joined.slice(offset);
    },
    flush(controller) {
      if (pending.length > 0) controller.enqueue(errorEvent("the platform's stream ended in the middle of an event"));
    },
  });
}
