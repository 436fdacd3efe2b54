/**
 * Reading an outbound response's body up to a bound: an answer from an address the
 * gateway was given (a provider, a token endpoint) is the other side's to size, and reading
 * it whole (`res.json()`) would let it fill the node's memory. Past the bound the body is
 * cancelled, so the rest is never read.
 */

/** A body over the bound (said in bytes, never with its content). */
export class BodyTooLarge extends Error {
  override name = "BodyTooLarge";
  constructor(readonly maxBytes: number) {
    super(`the answer is over ${maxBytes} bytes`);
  }
}

const decoder = new TextDecoder();

/**
 * What came of `body`, read until it ends or more than `max` bytes came, the rest then
 * cancelled (a provider may send any amount); `over` says the body was longer. A read that
 * fails throws, unless `partial`: then what came before it is the body.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array>,
  max: number,
  partial: boolean,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  try {
    while (size <= max) {
      const read = await reader.read();
      if (read.done) {
        done = true;
        break;
      }
      chunks.push(read.value);
      size += read.value.byteLength;
    }
  } catch (err) {
    if (!partial) throw err;
  }
  if (!done) void reader.cancel().catch(() => {});
  // Most answers come in one piece: no copy then.
  return { bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size), over: size > max };
}

/** The body as text, or BodyTooLarge once more than `maxBytes` have come (or are announced). */
export async function readTextUpTo(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return "";
  if (Number(res.headers.get("content-length")) > maxBytes) {
    await res.body.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes);
  }
  const { bytes, over } = await readAtMost(res.body, maxBytes, false);
  if (over) throw new BodyTooLarge(maxBytes);
  return decoder.decode(bytes);
}
