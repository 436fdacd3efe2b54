/**
 * Reading an outbound response's body up to a bound: an answer from an address the
 * gateway was given (a token endpoint, say) is the other side's to size, and reading it
 * whole (`res.json()`) would let it fill the node's memory. Past the bound the body is
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

/** The body as text, or BodyTooLarge once more than `maxBytes` have come (or are announced). */
export async function readTextUpTo(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return "";
  const declared = Number(res.headers.get("content-length"));
  if (declared > maxBytes) {
    await res.body.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let seen = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (seen > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return decoder.decode(Buffer.concat(chunks));
}
