/**
 * Reads a JSON request body under a size limit and a time limit, with a clear error for
 * each way it can be wrong. The size is checked against Content-Length before reading,
 * and against the bytes actually read for chunked bodies. The time (GW_BODY_TIMEOUT_S):
 * a body that goes `idleMs` without a byte, or is not all there `wholeMs` after its read
 * began, is a 408; a small declared body must be whole within `idleMs`. It is answered
 * before the server's own idle timeout would cut the connection without an answer: that
 * timeout is held off for the request while its body comes.
 */
import { ApiError, badRequest } from "./errors.ts";

const decoder = new TextDecoder();

/**
 * Deepest nesting of arrays and objects accepted. Real requests (tool schemas
 * included) stay far below; a body nested 100,000 deep would overflow the stack of
 * whatever walks it next (serialization, the scanner).
 */
export const MAX_JSON_DEPTH = 128;

/** The nesting depth of JSON text exceeds `limit` (brackets inside strings do not count). */
export function nestedDeeperThan(text: string, limit: number): boolean {
  // Fast path: with no more opening brackets than the limit, the depth cannot exceed it.
  let openers = 0;
  for (let i = text.indexOf("["); i !== -1 && openers <= limit; i = text.indexOf("[", i + 1)) openers++;
  for (let i = text.indexOf("{"); i !== -1 && openers <= limit; i = text.indexOf("{", i + 1)) openers++;
  if (openers <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

const tooLarge = (limit: number) => new ApiError(413, "payload_too_large", `The request body is larger than the limit of ${limit} bytes.`);

/** What bounds a request body: its size (GW_MAX_BODY_BYTES) and how long it may take to arrive (GW_BODY_TIMEOUT_S). */
export interface BodyLimits {
  maxBytes: number;
  /** Longest wait for the body's next bytes, in ms: the first included. */
  idleMs: number;
  /** Longest the whole body may take from the start of its read, in ms, however steadily it comes. */
  wholeMs: number;
}

/**
 * The whole body's bound, in idle bounds: at the default (60 s, so 10 minutes) a body at
 * the default size limit (32 MiB) needs 56 KB/s on average, and a client sending a byte
 * now and then cannot hold its connection, its handler and what it sent for ever.
 */
export const WHOLE_BODY_IDLE_BOUNDS = 10;

export function bodyLimits(maxBytes: number, timeoutS: number): BodyLimits {
  return { maxBytes, idleMs: timeoutS * 1000, wholeMs: timeoutS * WHOLE_BODY_IDLE_BOUNDS * 1000 };
}

/**
 * The server a request came in on, as far as the readers need it: Bun's
 * `server.timeout(request, seconds)`, the request's own idle timeout (at most 255 s, in
 * steps of 4 s). Bun counts that timeout across a body still arriving, whether bytes flow
 * or not, and cuts the connection at its end without an answer.
 */
export interface RequestTimer {
  timeout(request: Request, seconds: number): void;
}

/**
 * The connection's idle timeout outside a body's read: the server's (`idleTimeout`, given
 * to Bun in app.ts), put back when a read ends so a kept-alive connection idles as before.
 */
export const SERVER_IDLE_TIMEOUT_S = 30;

/** Bun's timer past the reader's idle bound, in seconds. */
const SERVER_HOLD_MARGIN_S = 5;

const seconds = (ms: number) => (ms === 1000 ? "1 second" : `${ms / 1000} seconds`);

/** The body was not all there within `ms` (`idle`: it went that long without a byte). */
const timedOut = (ms: number, idle: boolean) =>
  new ApiError(
    408,
    "request_timeout",
    idle ? `The request body stopped arriving: nothing came for ${seconds(ms)}.` : `The request body did not arrive within ${seconds(ms)}.`,
    // The rest of the body is not read: the connection ends with the answer rather than being drained.
    { headers: { connection: "close" } },
  );

/**
 * A declared body up to this size is read by the runtime's own `text()` (natively, no
 * stream built: the usual call, at a fraction of the cost) and must arrive whole within
 * the idle bound: 64 KiB in 60 s is 1 KB/s. A larger body, or one of no declared length,
 * is read chunk by chunk, the idle bound between two chunks and the whole bound overall.
 */
export const WHOLE_WITHIN_IDLE_BYTES = 64 * 1024;

/** The body as text, under both limits: the size first, then the time. */
function readLimited(request: Request, limits: BodyLimits, server: RequestTimer | null): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limits.maxBytes) return Promise.reject(tooLarge(limits.maxBytes));
  if (declared !== null && Number(declared) <= WHOLE_WITHIN_IDLE_BYTES) return readSmall(request, limits, server);
  return readChunks(request, limits, server);
}

/**
 * A small declared body: the runtime's own promise, raced against the idle bound, the
 * server's timeout held off meanwhile and given back when it ends.
 */
function readSmall(request: Request, limits: BodyLimits, server: RequestTimer | null): Promise<string> {
  server?.timeout(request, holdFor(limits));
  let text: Promise<string>;
  try {
    text = request.text();
  } catch (err) {
    server?.timeout(request, SERVER_IDLE_TIMEOUT_S);
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => {
    const expire = () => {
      server?.timeout(request, SERVER_IDLE_TIMEOUT_S);
      // The read is left to fail with the connection, which closes with the answer.
      reject(timedOut(limits.idleMs, false));
    };
    let timer = setTimeout(() => (timer = setTimeout(expire, SECOND_LOOK_MS)), limits.idleMs);
    const ended = () => {
      clearTimeout(timer);
      server?.timeout(request, SERVER_IDLE_TIMEOUT_S);
    };
    text.then(
      (value) => {
        ended();
        resolve(value);
      },
      (err) => {
        ended();
        reject(err);
      },
    );
  });
}

/**
 * Past a bound, how long the reader waits for one more look before its 408: the bytes a
 * busy process (a loaded machine, a long task) received meanwhile are counted first, as
 * its timer may fire before the input that came during the same pause is read.
 */
const SECOND_LOOK_MS = 50;

/** Bun's timeout while a body comes: past the reader's idle bound, so the reader's 408 comes first (Bun's timer moves in steps of 4 s). */
const holdFor = (limits: BodyLimits) => Math.ceil(limits.idleMs / 1000) + SERVER_HOLD_MARGIN_S;

/**
 * A large or chunked body, chunk by chunk. One timer for both bounds: it fires at the
 * nearer and, when bytes came since, is set again for what is left. Each chunk holds the
 * server's own timeout off again; the read's end, however it ends, gives the connection
 * the server's timeout back.
 */
async function readChunks(request: Request, limits: BodyLimits, server: RequestTimer | null): Promise<string> {
  const body = request.body;
  if (!body) return "";
  const holdS = holdFor(limits);
  server?.timeout(request, holdS);
  const reader = body.getReader();
  const startedAt = performance.now();
  let lastAt = startedAt;
  let expired: ApiError | null = null;
  let secondLook = false;
  const check = () => {
    const now = performance.now();
    const wholeLeft = startedAt + limits.wholeMs - now;
    const left = Math.min(lastAt + limits.idleMs - now, wholeLeft);
    if (left > 0 || !secondLook) {
      secondLook = left <= 0;
      timer = setTimeout(check, left > 0 ? left : SECOND_LOOK_MS);
      return;
    }
    expired = wholeLeft <= 0 ? timedOut(limits.wholeMs, false) : timedOut(limits.idleMs, true);
    // A read waiting on the body ends (done), and the loop below reports the timeout.
    void reader.cancel(expired).catch(() => {});
  };
  let timer = setTimeout(check, Math.min(limits.idleMs, limits.wholeMs));
  let ended = false;
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (expired) throw expired;
      if (done) {
        ended = true;
        break;
      }
      size += value.byteLength;
      if (size > limits.maxBytes) throw tooLarge(limits.maxBytes);
      chunks.push(value);
      lastAt = performance.now();
      server?.timeout(request, holdS);
    }
    return chunks.length === 1 ? decoder.decode(chunks[0]) : decoder.decode(Buffer.concat(chunks));
  } finally {
    clearTimeout(timer);
    server?.timeout(request, SERVER_IDLE_TIMEOUT_S);
    // A body left unread (too large, a read that failed): the rest is not wanted.
    if (!ended && !expired) void reader.cancel().catch(() => {});
  }
}

/** A body that could not be read: our own errors (too large, too slow) as they are, the runtime's as a 400. */
function unreadable(err: unknown): never {
  if (err instanceof ApiError) throw err;
  throw badRequest("The request body could not be read.");
}

/** The body's text under the limits (an ApiError: 413, 408, or 400 for a body the runtime could not read). */
export function readBodyText(request: Request, limits: BodyLimits, server: RequestTimer | null = null): Promise<string> {
  return readLimited(request, limits, server).catch(unreadable);
}

/** The parsed body, which must be a JSON object. `server`: the one the request came in on, whose own timeout is held off while the body comes. */
export function readJsonObject(request: Request, limits: BodyLimits, server: RequestTimer | null = null): Promise<Record<string, unknown>> {
  return readLimited(request, limits, server).then(parseJsonObject, unreadable);
}

/** The body's text as a JSON object, or a 400 saying what is wrong with it. */
function parseJsonObject(text: string): Record<string, unknown> {
  if (text.length === 0) throw badRequest("The request body is empty; a JSON object is expected.");
  if (nestedDeeperThan(text, MAX_JSON_DEPTH))
    throw badRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`The request body is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest("The request body must be a JSON object.");
  return value as Record<string, unknown>;
}
