import { expect, test } from "bun:test";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { SseDecoder, SseEventTooLarge } from "../../../src/lib/sse.ts";
import { eventStreamToSse } from "../../../src/providers/bedrock/event-stream.ts";
import { platformFrames } from "../../../src/simulator/messages-format.ts";

const events = [
  { event: "message_start", data: { type: "message_start", message: { id: "m", model: "claude", usage: { input_tokens: 3 } } } },
  { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "héllo ✓" } } },
  { event: "message_stop", data: { type: "message_stop" } },
];

async function decode(chunks: Uint8Array[]) {
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(x);
      c.close();
    },
  });
  const d = new SseDecoder();
  const out = [...d.push(new Uint8Array(await new Response(source.pipeThrough(eventStreamToSse())).arrayBuffer())), ...d.end().blocks];
  return out.map((b) => b.event!);
}

test("binary frames become the vendor's server-sent events, however the bytes are split", async () => {
  const bytes = Buffer.concat(platformFrames(events));
  for (const size of [1, 7, 64, bytes.length]) {
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    const out = await decode(chunks);
    expect(out.map((e) => e.event)).toEqual(["message_start", "content_block_delta", "message_stop"]);
    expect(JSON.parse(out[1]!.data)).toEqual(events[1]!.data);
  }
});

test("exceptions become error events; a cut frame is reported", async () => {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const exception = codec.encode({
    headers: {
      ":message-type": { type: "string", value: "exception" },
      ":exception-type": { type: "string", value: "throttlingException" },
    },
    body: fromUtf8("slow down"),
  });
  const out = await decode([exception]);
  expect(out[0]?.event).toBe("error");
  expect(JSON.parse(out[0]!.data).error.message).toContain("throttlingException: slow down");
  const cut = await decode([Buffer.concat(platformFrames(events)).subarray(0, 40)]);
  expect(cut.at(-1)?.event).toBe("error");
});

test("a frame that declares more than the bound is refused at its prelude, not gathered", async () => {
  let pulled = 0;
  const prelude = new Uint8Array(4);
  new DataView(prelude.buffer).setUint32(0, 3_000_000);
  const source = new ReadableStream<Uint8Array>({
    // A frame of 3 MB on its way, endlessly.
    pull(c) {
      c.enqueue(pulled++ === 0 ? prelude : new Uint8Array(16 * 1024));
    },
  });
  const read = new Response(source.pipeThrough(eventStreamToSse(1024 * 1024))).arrayBuffer();
  expect(read).rejects.toThrow(SseEventTooLarge);
  await read.catch(() => {});
  expect(pulled).toBeLessThan(10);
});

test("frames within the bound pass, however the bytes are split", async () => {
  const bytes = Buffer.concat(platformFrames(events));
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.subarray(i, i + 5));
      c.close();
    },
  });
  const d = new SseDecoder();
  const out = d.push(new Uint8Array(await new Response(source.pipeThrough(eventStreamToSse(bytes.length))).arrayBuffer()));
  expect(out.map((b) => b.event?.event)).toEqual(["message_start", "content_block_delta", "message_stop"]);
});
