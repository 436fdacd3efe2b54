/** How the simulator splits an answer for a stream, and how it paces the pieces. */
import { describe, expect, test } from "bun:test";
import { pacedStream } from "../../src/simulator/pacing.ts";
import { splitPieces } from "../../src/simulator/stream-pieces.ts";

describe("splitPieces", () => {
  const text = "The gateway forwarded this request and the simulated model answered";

  test("one piece a word by default, each after the first with its leading space", () => {
    expect(splitPieces(text)).toEqual([
      "The",
      " gateway",
      " forwarded",
      " this",
      " request",
      " and",
      " the",
      " simulated",
      " model",
      " answered",
    ]);
  });

  test("exactly n pieces of whole words when there are enough words, joining back to the text", () => {
    for (const n of [1, 3, 7, 10]) {
      const pieces = splitPieces(text, n);
      expect(pieces).toHaveLength(n);
      expect(pieces.join("")).toBe(text);
      for (const p of pieces) expect(p.trim()).not.toBe("");
    }
  });

  test("more pieces than words: split by characters; never more pieces than characters", () => {
    const pieces = splitPieces("one two", 5);
    expect(pieces).toHaveLength(5);
    expect(pieces.join("")).toBe("one two");
    expect(splitPieces("abc", 10)).toEqual(["a", "b", "c"]);
    expect(splitPieces("", 4)).toEqual([""]);
  });

  test("characters outside the basic plane are never cut in half", () => {
    const pieces = splitPieces("a😀b", 3);
    expect(pieces).toEqual(["a", "😀", "b"]);
  });
});

describe("pacedStream", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  /** Reads it all, timing each chunk from `started` (taken before the stream was made, so times are lower bounds). */
  const read = async (stream: ReadableStream<Uint8Array>, started: number) => {
    const chunks: string[] = [];
    const times: number[] = [];
    for await (const c of stream) {
      chunks.push(new TextDecoder().decode(c));
      times.push(performance.now() - started);
    }
    return { chunks, times };
  };

  test("head, pieces, tail in order; the i-th piece no earlier than its share of the delay", async () => {
    const started = performance.now();
    const { chunks, times } = await read(
      pacedStream([bytes("h")], [bytes("1"), bytes("2"), bytes("3"), bytes("4")], [bytes("t")], 200),
      started,
    );
    expect(chunks).toEqual(["h", "1", "2", "3", "4", "t"]);
    for (let i = 1; i <= 4; i++) expect(times[i]!).toBeGreaterThanOrEqual((200 * i) / 4);
    expect(times[5]!).toBeGreaterThanOrEqual(200);
  });

  test("a reader that cancels stops it", async () => {
    const stream = pacedStream([bytes("h")], [bytes("1"), bytes("2"), bytes("3")], [bytes("t")], 150);
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("h");
    const pending = reader.read();
    await reader.cancel();
    expect((await pending).done).toBe(true);
  });
});
