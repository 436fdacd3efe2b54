/**
 * Requests Bun's HTTP parser rejects before any of our code runs: a bad
 * Content-Length, control characters in a header. Bun answers them itself with a bare
 * `400 Bad Request` and closes the connection; its `error` handler is not called for
 * them (checked: it only sees errors thrown by the fetch handler), so they cannot carry
 * the surface's JSON envelope. This pins that behaviour (docs/security.md says so)
 * and that the gateway keeps serving afterwards.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  h = await startHarness();
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => h.app.handle(req) });
});

afterAll(async () => {
  server.stop(true);
  await h.close();
});

/** Sends raw bytes and returns everything the server wrote before closing. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const socket = connect(server.port as number, "127.0.0.1", () => socket.write(text));
    socket.on("data", (d) => (out += d));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
  });
}

for (const [what, request] of [
  ["a Content-Length that is not a number", "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"],
  ["a control character in a header value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Probe: a\u0001b\r\n\r\n"],
] as const) {
  test(`${what}: Bun's bare 400, the connection closed, the gateway unharmed`, async () => {
    const answer = await raw(request);
    expect(answer.startsWith("HTTP/1.1 400")).toBe(true);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
  });
}
