import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import {
  type BodyLimits,
  bodyLimits,
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  readJsonObject,
  SERVER_IDLE_TIMEOUT_S,
} from "../../src/lib/json-body.ts";

/** A size limit with the default time limits. */
const upTo = (maxBytes: number) => bodyLimits(maxBytes, 60);

const req = (body: RequestInit["body"], headers: Record<string, string> = {}) =>
  new Request("http://x/", { method: "POST", body, headers });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    return err as ApiError;
  }
  throw new Error("expected a failure");
}

describe("readJsonObject", () => {
  test("parses an object", async () => {
    expect(await readJsonObject(req('{"a":1}'), upTo(100))).toEqual({ a: 1 });
  });

  test("empty, malformed and non-object bodies are 400s that say so", async () => {
    expect((await failure(readJsonObject(req(""), upTo(100)))).message).toContain("empty");
    const bad = await failure(readJsonObject(req("{bad"), upTo(100)));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("not valid JSON");
    expect((await failure(readJsonObject(req("[1,2]"), upTo(100)))).message).toContain("must be a JSON object");
    expect((await failure(readJsonObject(req("42"), upTo(100)))).message).toContain("must be a JSON object");
  });

  test("bodies over the limit are 413, by declared length and by bytes read", async () => {
    expect((await failure(readJsonObject(req("x".repeat(200)), upTo(100)))).status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(50)));
        c.close();
      },
    });
    expect((await failure(readJsonObject(req(stream), upTo(100)))).status).toBe(413);
  });
});

/** A body that sends `parts` one `everyMs` apart, then stays open without another byte (`close`: ends instead). */
function trickle(parts: string[], everyMs: number, close = false): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream({
    start(c) {
      let i = 0;
      timer = setInterval(() => {
        if (i < parts.length) c.enqueue(new TextEncoder().encode(parts[i++]));
        else {
          clearInterval(timer);
          if (close) c.close();
        }
      }, everyMs);
    },
    cancel() {
      clearInterval(timer);
    },
  });
}

/** A server's `timeout(request, seconds)`, as the reader calls it. */
function recordingServer(): { calls: number[]; timeout(request: Request, seconds: number): void } {
  const calls: number[] = [];
  return { calls, timeout: (_request, seconds) => void calls.push(seconds) };
}

/** Bounds in milliseconds, so the tests do not wait seconds. */
const quick = (idleMs: number, wholeMs: number, maxBytes = 1000): BodyLimits => ({ maxBytes, idleMs, wholeMs });

describe("readJsonObject: a body's time", () => {
  test("a body that stops arriving is a 408 request_timeout that closes the connection", async () => {
    const err = await failure(readJsonObject(req(trickle(['{"a":'], 5)), quick(100, 10_000)));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(408);
    expect(err.code).toBe("request_timeout");
    expect(err.message).toBe("The request body stopped arriving: nothing came for 0.1 seconds.");
    expect(err.headers).toEqual({ connection: "close" });
  });

  test("a body that never starts is a 408 too", async () => {
    expect((await failure(readJsonObject(req(trickle([], 5)), quick(50, 10_000)))).status).toBe(408);
  });

  test("a slow body whose bytes keep coming within the idle bound is read", async () => {
    const parts = ['{"a"', ":", "1", ",", '"b"', ":", "2", "}"];
    // Together far longer than the idle bound; each gap well inside it.
    expect(await readJsonObject(req(trickle(parts, 40, true)), quick(400, 10_000))).toEqual({ a: 1, b: 2 });
  });

  test("a body still trickling at the whole bound is a 408 that names it", async () => {
    const err = await failure(readJsonObject(req(trickle(Array(1000).fill(" "), 10)), quick(400, 150, 100_000)));
    expect(err.status).toBe(408);
    expect(err.message).toBe("The request body did not arrive within 0.15 seconds.");
  });

  test("the server's own timeout is held off while the body comes, and given back however the read ends", async () => {
    const limits = quick(1000, 10_000);
    const held = Math.ceil(limits.idleMs / 1000) + 5;
    const read = recordingServer();
    expect(await readJsonObject(req(trickle(['{"a"', ":1}"], 5, true)), limits, read)).toEqual({ a: 1 });
    expect(read.calls).toEqual([held, held, held, SERVER_IDLE_TIMEOUT_S]);

    const stalled = recordingServer();
    expect((await failure(readJsonObject(req(trickle(["{"], 5)), quick(100, 10_000), stalled))).status).toBe(408);
    expect(stalled.calls.at(-1)).toBe(SERVER_IDLE_TIMEOUT_S);

    const large = recordingServer();
    expect((await failure(readJsonObject(req(trickle(["x".repeat(600), "x".repeat(600)], 5)), limits, large))).status).toBe(413);
    expect(large.calls.at(-1)).toBe(SERVER_IDLE_TIMEOUT_S);

    // Refused by its declared length: nothing read, the timeout never touched.
    const declared = recordingServer();
    expect((await failure(readJsonObject(req("x".repeat(2000), { "content-length": "2000" }), limits, declared))).status).toBe(413);
    expect(declared.calls).toEqual([]);
  });

  test("a small declared body is read whole by the runtime, and must be whole within the idle bound", async () => {
    const limits = quick(100, 10_000);
    const read = recordingServer();
    expect(await readJsonObject(req('{"a":1}', { "content-length": "7" }), limits, read)).toEqual({ a: 1 });
    expect(read.calls).toEqual([Math.ceil(limits.idleMs / 1000) + 5, SERVER_IDLE_TIMEOUT_S]);

    // Bytes keep coming, but the whole body is not there within the bound: a 408, the timeout given back.
    const stalled = recordingServer();
    const slow = req(trickle(['{"a"', ":", "1", "}"], 60, true), { "content-length": "7" });
    const err = await failure(readJsonObject(slow, limits, stalled));
    expect(err.status).toBe(408);
    expect(err.message).toBe("The request body did not arrive within 0.1 seconds.");
    expect(stalled.calls.at(-1)).toBe(SERVER_IDLE_TIMEOUT_S);
  });

  test("the whole bound is ten idle bounds, both from GW_BODY_TIMEOUT_S", () => {
    expect(bodyLimits(1024, 60)).toEqual({ maxBytes: 1024, idleMs: 60_000, wholeMs: 600_000 });
  });
});

describe("nestedDeeperThan", () => {
  test("counts arrays and objects, not brackets inside strings or escaped quotes", () => {
    expect(nestedDeeperThan(`${"[".repeat(3)}${"]".repeat(3)}`, 3)).toBe(false);
    expect(nestedDeeperThan(`${"[".repeat(4)}${"]".repeat(4)}`, 3)).toBe(true);
    expect(nestedDeeperThan(`{"a":{"b":[{}]}}`, 3)).toBe(true);
    expect(nestedDeeperThan(`{"a":"[[[[[[\\"[[[[","b":[1]}`, 3)).toBe(false);
    // Siblings do not add up: depth, not count.
    expect(nestedDeeperThan(`[${"[],".repeat(50)}[]]`, 3)).toBe(false);
  });

  test("a body deeper than the limit is a 400 before it is parsed", async () => {
    const err = await failure(
      readJsonObject(req(`{"a":${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}}`), upTo(10_000_000)),
    );
    expect(err.status).toBe(400);
    expect(err.message).toContain(`deeper than ${MAX_JSON_DEPTH}`);
  });
});
