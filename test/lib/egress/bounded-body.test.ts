/**
 * Reading an outbound answer up to a bound: text under it comes whole (a character split
 * across chunks included), an answer announced or streamed past it is refused, and the
 * rest of the stream is cancelled rather than read.
 */
import { expect, test } from "bun:test";
import { BodyTooLarge, readTextUpTo } from "../../../src/lib/egress/bounded-body.ts";

const encoder = new TextEncoder();

/** A body of `chunks`, saying whether it was cancelled and how many chunks were asked of it. */
function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  let at = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulled += 1;
        const next = chunks[at++];
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { headers }), seen };
}

test("an answer within the bound is read whole, a character split across chunks included", async () => {
  const bytes = encoder.encode('{"name":"Åsa ✓"}');
  const { response } = streamed([bytes.slice(0, 10), bytes.slice(10)]);
  expect(await readTextUpTo(response, bytes.byteLength)).toBe('{"name":"Åsa ✓"}');
});

test("an answer streamed past the bound is refused and the rest is not read", async () => {
  const chunk = new Uint8Array(1024).fill(120);
  const { response, seen } = streamed(Array.from({ length: 100 }, () => chunk));
  const err = await readTextUpTo(response, 4096).catch((e: Error) => e);
  expect(err).toBeInstanceOf(BodyTooLarge);
  expect((err as Error).message).toBe("the answer is over 4096 bytes");
  expect(seen.cancelled).toBe(true);
  expect(seen.pulled).toBeLessThan(100);
});

test("an answer announced past the bound is refused before its body is read", async () => {
  const { response, seen } = streamed([new Uint8Array(5000)], { "content-length": "5000" });
  expect(await readTextUpTo(response, 4096).catch((e: Error) => e)).toBeInstanceOf(BodyTooLarge);
  expect(seen).toEqual({ pulled: 0, cancelled: true });
});

test("no body reads as empty text", async () => {
  expect(await readTextUpTo(new Response(null, { status: 204 }), 10)).toBe("");
});
