/** Simulated latency: waits that never end early, and streams whose pieces are spread across a delay. */

/** Resolves no earlier than `due` (a performance.now() time); timers may round, so it re-checks. */
export async function waitUntil(due: number): Promise<void> {
  for (let left = due - performance.now(); left > 0; left = due - performance.now()) await Bun.sleep(Math.ceil(left));
}

export const waitFor = (delayMs: number) => (delayMs > 0 ? waitUntil(performance.now() + delayMs) : Promise.resolve());

/**
 * `head` at once, then `pieces` spread so the i-th leaves no earlier than
 * start + delayMs * (i + 1) / pieces.length (the whole stream takes at least
 * `delayMs`), then `tail`. Pulled one piece at a time, so a reader that cancels stops
 * it; without a delay everything is queued at once, which keeps the mock fast.
 */
export function pacedStream(head: Uint8Array[], pieces: Uint8Array[], tail: Uint8Array[], delayMs: number): ReadableStream<Uint8Array> {
  if (delayMs <= 0) {
    return new ReadableStream({
      start(c) {
        for (const chunk of [...head, ...pieces, ...tail]) c.enqueue(chunk);
        c.close();
      },
    });
  }
  let start = 0;
  let next = 0;
  let cancelled = false;
  return new ReadableStream({
    start(c) {
      start = performance.now();
      for (const chunk of head) c.enqueue(chunk);
    },
    async pull(c) {
      if (next < pieces.length) {
        await waitUntil(start + (delayMs * (next + 1)) / pieces.length);
        // The reader may have left during the wait; a cancelled stream takes nothing more.
        if (!cancelled) c.enqueue(pieces[next++] as Uint8Array);
        return;
      }
      for (const chunk of tail) c.enqueue(chunk);
      c.close();
    },
    cancel() {
      cancelled = true;
    },
  });
}
