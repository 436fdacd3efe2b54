import { describe, expect, test } from "bun:test";
import { encodeSse, SseDecoder, type SseEvent, SseEventTooLarge } from "../../src/lib/sse.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

function decodeAll(chunks: Uint8Array[]) {
  const d = new SseDecoder();
  const events: SseEvent[] = [];
  for (const c of chunks) for (const b of d.push(c)) if (b.event) events.push(b.event);
  const end = d.end();
  for (const b of end.blocks) if (b.event) events.push(b.event);
  return { events, clean: end.clean };
}

const CASES: { name: string; stream: string; events: Partial<SseEvent>[] }[] = [
  {
    name: "data-only (chat completions)",
    stream: 'data: {"a":1}\n\ndata: [DONE]\n\n',
    events: [{ data: '{"a":1}', event: null }, { data: "[DONE]" }],
  },
  {
    name: "event + data (messages)",
    stream: 'event: message_start\ndata: {}\n\nevent: ping\ndata: {"type":"ping"}\n\n',
    events: [
      { event: "message_start", data: "{}" },
      { event: "ping", data: '{"type":"ping"}' },
    ],
  },
  { name: "multi-line data", stream: "data: one\ndata: two\n\n", events: [{ data: "one\ntwo" }] },
  { name: "CRLF line endings", stream: "event: x\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", events: [{ event: "x", data: "1" }, { data: "2" }] },
  { name: "CR line endings", stream: "data: 1\r\rdata: 2\r\r", events: [{ data: "1" }, { data: "2" }] },
  {
    name: "comments and unknown fields are ignored",
    stream: ": keep-alive\n\nretry: 10\ndata:no-space\nid: 7\n\n",
    events: [{ data: "no-space", id: "7" }],
  },
  {
    name: "a field without a colon, and a value holding colons",
    stream: "data\n\nevent\ndata: a: b\nid:x:1\n\n",
    events: [{ data: "" }, { event: "", data: "a: b", id: "x:1" }],
  },
  { name: "multi-byte UTF-8", stream: "data: héllo wörld ✓ 🚀\n\n", events: [{ data: "héllo wörld ✓ 🚀" }] },
];

describe("SseDecoder", () => {
  for (const c of CASES) {
    test(`${c.name}, split at every byte boundary`, () => {
      const all = bytes(c.stream);
      for (let cut = 0; cut <= all.length; cut++) {
        const { events, clean } = decodeAll([all.slice(0, cut), all.slice(cut)]);
        expect(events.length).toBe(c.events.length);
        c.events.forEach((e, i) => expect(events[i]).toMatchObject(e));
        expect(clean).toBe(true);
      }
      // and one byte at a time
      expect(decodeAll([...all].map((b) => new Uint8Array([b]))).events.length).toBe(c.events.length);
    });
  }

  test("an event that grows past its bound, with or without line ends, is refused rather than held", () => {
    const unended = new SseDecoder(1024);
    expect(unended.push(bytes(`data: ${"x".repeat(1000)}`))).toEqual([]);
    expect(() => unended.push(bytes("x".repeat(100)))).toThrow(SseEventTooLarge);
    const lines = new SseDecoder(1024);
    expect(() => {
      for (let i = 0; i < 200; i++) lines.push(bytes("data: xxxx\n"));
    }).toThrow(SseEventTooLarge);
    // One that came whole in a single chunk is no different.
    expect(() => new SseDecoder(1024).push(bytes(`data: ${"z".repeat(2000)}\n\n`))).toThrow(SseEventTooLarge);
    // Events that end within the bound pass, however many there are.
    const many = new SseDecoder(1024);
    for (let i = 0; i < 200; i++) expect(many.push(bytes(`data: ${"y".repeat(500)}\n\n`)).length).toBe(1);
  });

  test("a stream cut inside an event is not clean", () => {
    expect(decodeAll([bytes('data: {"a":1}\n\ndata: {"trunc')]).clean).toBe(false);
    expect(decodeAll([bytes("data: 1\n\n")]).clean).toBe(true);
  });
});

test("encodeSse writes event and data lines", () => {
  expect(new TextDecoder().decode(encodeSse({ event: "error", data: "a\nb" }))).toBe("event: error\ndata: a\ndata: b\n\n");
  expect(new TextDecoder().decode(encodeSse({ data: "[DONE]" }))).toBe("data: [DONE]\n\n");
});
