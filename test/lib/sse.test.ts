import { describe, expect, test } from "bun:test";
import { encodeSse, SseDecoder, type SseEvent, SseEventTooLarge, type SseTapOptions, sseTapSource } from "../../src/lib/sse.ts";

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

/** `chunks` (all available at once, then the end) through a tap, as the client reads them. */
async function pipe(chunks: string[], opts: SseTapOptions) {
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const s of chunks) c.enqueue(bytes(s));
      c.close();
    },
  });
  const out: Uint8Array[] = [];
  for await (const chunk of sseTapSource(source, { ...opts, drainMs: 1_000 })) out.push(chunk);
  return out;
}

describe("sseTapSource", () => {
  test("passes chunks of whole events through unchanged, one for one, while reading events", async () => {
    const chunks = ['data: {"model":"m"}\n\n', 'data: {"usage":1}\n\n: ping\n\n', "data: [DONE]\n\n"];
    const out = await pipe(chunks, { onEvent: () => {} });
    expect(out.map((c) => new TextDecoder().decode(c))).toEqual(chunks);
  });

  test("an event split across chunks passes once whole, so no part of one goes out before it was seen", async () => {
    const chunks = ['data: {"model":"m"', '}\n\ndata: {"usage":1}\n', "\ndata: [DONE]\n\n"];
    const seen: string[] = [];
    let ended = null as boolean | null;
    const out = await pipe(chunks, {
      onEvent: (e) => void seen.push(e.data),
      onEnd: (c) => {
        ended = c;
      },
    });
    expect(out.map((c) => new TextDecoder().decode(c))).toEqual(['data: {"model":"m"}\n\n', 'data: {"usage":1}\n\ndata: [DONE]\n\n']);
    expect(seen).toEqual(['{"model":"m"}', '{"usage":1}', "[DONE]"]);
    expect(ended).toBe(true);
  });

  test("an event the observer replaces goes out as its replacement, split or not; the rest unchanged", async () => {
    const chunks = ['data: {"n":1}\n\nevent: error\ndata: {"key":"s', 'ecret"}\n\ndata: {"n":2}\n\n'];
    const out = await pipe(chunks, {
      onEvent: (e) => (e.event === "error" ? { replace: "event: error\ndata: {}\n\n" } : undefined),
    });
    const text = out.map((c) => new TextDecoder().decode(c)).join("");
    expect(text).toBe('data: {"n":1}\n\nevent: error\ndata: {}\n\ndata: {"n":2}\n\n');
  });

  test("what closing gives is written after the provider's last event, before the end", async () => {
    const out = await pipe(['data: {"n":1}\n\ndata: {"n":2'], { onEvent: () => {}, closing: () => bytes("data: [END]\n\n") });
    // The unfinished event is not sent: only whole events are.
    expect(out.map((c) => new TextDecoder().decode(c)).join("")).toBe('data: {"n":1}\n\ndata: [END]\n\n');
  });

  test("with keep, drops whole events and forwards the rest byte for byte", async () => {
    const stream = 'data: {"n":1}\n\n: comment\n\ndata: {"usage":{}}\n\ndata: [DONE]\n\n';
    const out = await pipe([stream.slice(0, 20), stream.slice(20)], { onEvent: () => {}, keep: (e) => !e.data.includes("usage") });
    expect(out.map((c) => new TextDecoder().decode(c)).join("")).toBe('data: {"n":1}\n\n: comment\n\ndata: [DONE]\n\n');
  });

  test("with keep, chunks of whole blocks that are all kept pass one for one", async () => {
    const chunks = ['data: {"n":1}\n\n', 'data: {"n":2}\n\n: ping\n\n', "data: [DONE]\n\n"];
    const out = await pipe(chunks, { onEvent: () => {}, keep: (e) => !e.data.includes("usage") });
    expect(out.map((c) => new TextDecoder().decode(c))).toEqual(chunks);
  });

  test("with keep, blocks split across chunks, even inside a character, arrive whole and once", async () => {
    // A block that begins with "é" (an unknown field: ignored, but forwarded), two bytes in UTF-8.
    const text = 'data: {"n":1}\n\né: x\n\ndata: {"usage":{}}\n\ndata: [DONE]\n\n';
    const all = bytes(text);
    // The first chunk is a whole block and one byte of "é"; the second ends inside the usage block.
    const cuts = [bytes('data: {"n":1}\n\n').byteLength + 1, all.byteLength - 20];
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(all.slice(0, cuts[0]));
        c.enqueue(all.slice(cuts[0], cuts[1]));
        c.enqueue(all.slice(cuts[1]));
        c.close();
      },
    });
    const out: Uint8Array[] = [];
    for await (const chunk of sseTapSource(source, { onEvent: () => {}, keep: (e) => !e.data.includes("usage"), drainMs: 1_000 }))
      out.push(chunk);
    expect(new TextDecoder().decode(Buffer.concat(out))).toBe('data: {"n":1}\n\né: x\n\ndata: [DONE]\n\n');
  });

  test("reports a cut-off stream", async () => {
    let ended = null as boolean | null;
    await pipe(['data: {"partial'], {
      onEvent: () => {},
      onEnd: (c) => {
        ended = c;
      },
    });
    expect(ended).toBe(false);
  });
});

describe("sseTapSource stopping", () => {
  test("an observer can end the stream before a bad event is forwarded", async () => {
    let ended = null as boolean | null;
    const chunks = ['data: {"n":1}\n\ndata: {"model":"other"}\n\ndata: {"n":3}\n\n', "data: [DONE]\n\n"];
    const out = await pipe(chunks, {
      onEvent: (e) => (e.data.includes("other") ? { stop: bytes("event: error\ndata: {}\n\n") } : undefined),
      onEnd: (c) => {
        ended = c;
      },
    });
    expect(out.map((c) => new TextDecoder().decode(c)).join("")).toBe('data: {"n":1}\n\nevent: error\ndata: {}\n\n');
    // onEnd follows the drain of what the source still held.
    while (ended === null) await Bun.sleep(1);
    expect(ended).toBe(false);
  });
});

/** A source that hands out `chunks` one per pull, `gapMs` apart, then (unless `open`) ends; it records how it ended. */
function pacedSource(chunks: string[], gapMs = 2, open = false) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    async pull(c) {
      await Bun.sleep(gapMs);
      const next = chunks[state.pulled];
      if (next === undefined) {
        if (!open) c.close();
        return;
      }
      state.pulled++;
      c.enqueue(bytes(next));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const STOP_ON_OTHER = (e: SseEvent) => (e.data.includes("other") ? { stop: bytes("event: error\ndata: {}\n\n") } : undefined);

describe("sseTapSource: after a stop the rest is drained, unseen", () => {
  test("the client gets the stop and the end at once; later events are observed, onEnd waits for the upstream's end", async () => {
    const chunks = [
      'data: {"n":1}\n\ndata: {"model":"other"}\n\ndata: {"n":3}\n\n',
      'data: {"n":4}\n\n',
      'data: {"usage":5}\n\n',
      "data: [DONE]\n\n",
    ];
    const { stream, state } = pacedSource(chunks, 20);
    const seen: string[] = [];
    let ended = null as { clean: boolean; pulled: number } | null;
    const out = sseTapSource(stream, {
      onEvent: (e) => {
        seen.push(e.data);
        return STOP_ON_OTHER(e);
      },
      onEnd: (clean) => {
        ended = { clean, pulled: state.pulled };
      },
      drainMs: 5_000,
    });
    const text = await new Response(out).text();
    expect(text).toBe('data: {"n":1}\n\nevent: error\ndata: {}\n\n');
    // The client's stream ended with the first chunk; the upstream had not.
    expect(ended).toBeNull();
    expect(state.pulled).toBeLessThan(chunks.length);
    while (!ended) await Bun.sleep(5);
    expect(ended!).toEqual({ clean: false, pulled: chunks.length });
    expect(seen).toEqual(['{"n":1}', '{"model":"other"}', '{"n":3}', '{"n":4}', '{"usage":5}', "[DONE]"]);
    expect(state.cancelled).toBe(false);
  });

  test("an upstream that never ends is cancelled after drainMs", async () => {
    const { stream, state } = pacedSource(['data: {"model":"other"}\n\n', 'data: {"n":2}\n\n'], 2, true);
    const seen: string[] = [];
    let endedAt = 0;
    const started = Date.now();
    const out = sseTapSource(stream, {
      onEvent: (e) => {
        seen.push(e.data);
        return STOP_ON_OTHER(e);
      },
      onEnd: () => {
        endedAt = Date.now();
      },
      drainMs: 150,
    });
    expect(await new Response(out).text()).toBe("event: error\ndata: {}\n\n");
    while (!endedAt) await Bun.sleep(5);
    expect(endedAt - started).toBeGreaterThanOrEqual(140);
    expect(state.cancelled).toBe(true);
    expect(seen).toEqual(['{"model":"other"}', '{"n":2}']);
  });

  test("without a stop it is a plain tap: chunks unchanged, onEnd clean", async () => {
    const chunks = ['data: {"a":1}\n\n', "data: [DONE]\n\n"];
    const { stream } = pacedSource(chunks);
    let ended = null as boolean | null;
    const out: string[] = [];
    for await (const c of sseTapSource(stream, { onEvent: () => {}, onEnd: (c) => void (ended = c), drainMs: 1000 }))
      out.push(new TextDecoder().decode(c));
    expect(out).toEqual(chunks);
    expect(ended).toBe(true);
  });

  test("a client that goes away cancels the upstream at once, without a drain", async () => {
    const { stream, state } = pacedSource(['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: {"n":3}\n\n'], 10, true);
    let ended = null as boolean | null;
    const reader = sseTapSource(stream, { onEvent: () => {}, onEnd: (c) => void (ended = c), drainMs: 60_000 }).getReader();
    await reader.read();
    await reader.cancel();
    for (let i = 0; i < 50 && !state.cancelled; i++) await Bun.sleep(5);
    expect(state.cancelled).toBe(true);
    expect(ended).toBe(false);
  });
});

describe("sseTapSource: ends and failures", () => {
  test("the client's stream ends only after onEnd settled (the call is accounted first)", async () => {
    let accounted = false;
    const out = await pipe(['data: {"a":1}\n\n', "data: [DONE]\n\n"], {
      onEvent: () => {},
      onEnd: async () => {
        await Bun.sleep(20);
        accounted = true;
      },
    });
    expect(out.length).toBe(2);
    expect(accounted).toBe(true);
  });

  test("an event past maxEventBytes cuts the client's stream as a failure would, and stops reading the provider", async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      // Endless: one event that never ends.
      pull(c) {
        c.enqueue(bytes(pulled++ === 0 ? 'data: {"a":1}\n\ndata: ' : "x".repeat(512)));
      },
      cancel() {
        cancelled = true;
      },
    });
    let pulled = 0;
    const order: string[] = [];
    const reader = sseTapSource(source, {
      onEvent: () => {},
      onEnd: (clean) => void order.push(`end:${clean}`),
      drainMs: 1_000,
      maxEventBytes: 4096,
    }).getReader();
    for (;;) {
      const read = await reader.read().then(
        (r) => (r.done ? "done" : "chunk"),
        (err: unknown) => (err === undefined ? "cut" : `error:${String(err)}`),
      );
      if (read !== "chunk") {
        order.push(read);
        break;
      }
    }
    expect(order).toEqual(["end:false", "cut"]);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(20);
  });

  test("a provider that fails mid-stream cuts the client's stream, after onEnd(false)", async () => {
    let pulls = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        if (pulls++ === 0) c.enqueue(bytes('data: {"a":1}\n\n'));
        else c.error(new Error("connection reset"));
      },
    });
    const order: string[] = [];
    const reader = sseTapSource(source, {
      onEvent: () => {},
      onEnd: (clean) => void order.push(`end:${clean}`),
      drainMs: 1_000,
    }).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"a":1}\n\n');
    await reader.read().then(
      () => order.push("read"),
      // Cut without a reason: Bun's server would print the provider's error (see sseTapSource).
      (err: unknown) => order.push(err === undefined ? "cut" : `error:${String(err)}`),
    );
    expect(order).toEqual(["end:false", "cut"]);
  });
});

test("served by Bun's HTTP server, chunks that end mid-event or hold only dropped events do not stall the response", async () => {
  const parts = ['data: {"a":', "1}\n\n", 'data: {"usage":1}\n\n', "data: [DONE]\n\n"];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      const { stream } = pacedSource(parts, 2);
      return new Response(sseTapSource(stream, { onEvent: () => {}, keep: (e) => !e.data.includes("usage"), drainMs: 1_000 }));
    },
  });
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/`, { signal: AbortSignal.timeout(3_000) });
    expect(await res.text()).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
  } finally {
    server.stop(true);
  }
});
