/**
 * A server of the test's own (the mock provider answers well) whose every answer is a
 * valid JSON document far past the bound under test, made only as it is read, and which
 * counts what it made: a test sees the reader stopped near its bound instead of reading
 * the whole document.
 */
export interface OversizedServer {
  port: number;
  /** Bytes the server has made so far. */
  sent(): number;
  stop(): Promise<void>;
}

const encoder = new TextEncoder();

/** `head`, then `entry` repeated until `totalBytes`, then `tail`: e.g. `{"data":[`, `{"id":"m"},`, `{"id":"last"}]}`. */
export function serveOversizedJson(head: string, entry: string, tail: string, totalBytes: number): OversizedServer {
  const one = encoder.encode(entry);
  const chunk = new Uint8Array(one.length * 1024);
  for (let i = 0; i < 1024; i++) chunk.set(one, i * one.length);
  let sent = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => {
      let made = 0;
      return new Response(
        new ReadableStream({
          type: "bytes",
          pull(controller) {
            if (made === 0) controller.enqueue(encoder.encode(head));
            if (made >= totalBytes) {
              controller.enqueue(encoder.encode(tail));
              controller.close();
              return;
            }
            made += chunk.length;
            sent += chunk.length;
            // A byte stream takes the buffer it is given: a copy each time.
            controller.enqueue(chunk.slice());
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    },
  });
  return { port: server.port as number, sent: () => sent, stop: () => server.stop(true) };
}
