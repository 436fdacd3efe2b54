import { expect, test } from "bun:test";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { SseDecoder, SseEventTooLarge } from "../../../src/lib/sse.ts";
import { eventStreamToSse } from "../../../src/providers/bedrock/event-stream.ts";
import { messagesWire } from "../../../src/providers/anthropic/messages-wire.ts";
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
      ":exception-type": { type: "string", value: "validationException" },
    },
    body: fromUtf8("not json"),
  });
  const out = await decode([exception]);
  expect(out[0]?.event).toBe("error");
  expect(JSON.parse(out[0]!.data).error.message).toContain("validationException: not json");
  const cut = await decode([Buffer.concat(platformFrames(events)).subarray(0, 40)]);
  expect(cut.at(-1)?.event).toBe("error");
});

/** An exception frame as the platform writes one: its union member's name, and `{"message": ...}` as the payload. */
function exceptionFrame(name: string, message: string): Uint8Array {
  return new EventStreamCodec(toUtf8, fromUtf8).encode({
    headers: {
      ":message-type": { type: "string", value: "exception" },
      ":exception-type": { type: "string", value: name },
      ":content-type": { type: "string", value: "application/json" },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

test("each stream exception is the vendor's error type for the same failure, read as its status", async () => {
  // Members of the ResponseStream union (aws-sdk-js-v3, client-bedrock-runtime Aws_restJson1.ts, de_ResponseStream).
  const cases: [string, string, number][] = [
    ["throttlingException", "rate_limit_error", 429],
    ["validationException", "invalid_request_error", 400],
    ["serviceUnavailableException", "overloaded_error", 529],
    ["modelTimeoutException", "timeout_error", 504],
    ["internalServerException", "api_error", 500],
    ["modelStreamErrorException", "api_error", 500],
  ];
  for (const [name, type, status] of cases) {
    const [event] = await decode([exceptionFrame(name, "Too many tokens, please wait before trying again.")]);
    const error = JSON.parse(event!.data).error;
    expect([name, error.type]).toEqual([name, type]);
    // The payload's message, not its JSON.
    expect(error.message).toBe(`${name}: Too many tokens, please wait before trying again.`);
    expect(messagesWire.streamEnd(event!)).toBe("error");
    expect([name, messagesWire.errorOf(event!).status]).toEqual([name, status]);
  }
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
