/**
 * The mock provider's oversized-answer steer, by base URL: a provider whose base URL is
 * `<mock>/fault-oversized-<MiB>` (then `/v1` or not, as the provider wants) gets, on the
 * model list and the messages format's token count, a valid JSON document of that many
 * MiB, made only as it is read. The mock counts the bytes it made (`oversizedBytes` in
 * `/_mock/stats`), so a test sees a reader stop near its bound instead of reading it whole.
 * A model list has no model name to steer by, hence the base URL.
 */

/** A document as `head`, then `entry` repeated past `totalBytes`, then `tail`. */
export interface OversizedShape {
  head: string;
  entry: string;
  tail: string;
  totalBytes: number;
}

const PREFIX = /^\/fault-oversized-(\d{1,5})(\/.*)$/;
const MAX_MIB = 4096;

/** The size asked for and the route below the prefix, or undefined when the path has no such prefix. */
export function oversizedSteer(pathname: string): { mib: number; rest: string } | undefined {
  const m = PREFIX.exec(pathname);
  if (!m) return undefined;
  return { mib: Math.min(Number(m[1]), MAX_MIB), rest: m[2] as string };
}

/** The shape of an oversized answer on `rest` (a model list or a token count), or undefined for other routes. */
export function oversizedShape(method: string, rest: string, mib: number): OversizedShape | undefined {
  const totalBytes = mib * 1024 * 1024;
  if (method === "GET" && /\/models$/.test(rest))
    return {
      head: '{"object":"list","data":[',
      entry: '{"id":"model-padding-padding-padding-padding"},',
      tail: '{"id":"last"}]}',
      totalBytes,
    };
  if (method === "POST" && /\/messages\/count_tokens$/.test(rest))
    return { head: '{"input_tokens":5,"pad":[', entry: `"${"x".repeat(62)}",`, tail: '"end"]}', totalBytes };
  return undefined;
}

const encoder = new TextEncoder();

/** Sends `shape` in writes of 1,024 entries, made as the reader pulls; `made` is told each write's size. */
export function sendOversized(shape: OversizedShape, made: (bytes: number) => void): Response {
  const one = encoder.encode(shape.entry);
  const chunk = new Uint8Array(one.length * 1024);
  for (let i = 0; i < 1024; i++) chunk.set(one, i * one.length);
  let sent = 0;
  const body = new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (sent === 0) controller.enqueue(encoder.encode(shape.head));
      if (sent >= shape.totalBytes) {
        controller.enqueue(encoder.encode(shape.tail));
        controller.close();
        return;
      }
      sent += chunk.length;
      made(chunk.length);
      // A byte stream takes the buffer it is given: a copy each time.
      controller.enqueue(chunk.slice());
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
