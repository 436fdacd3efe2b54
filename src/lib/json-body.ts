/**
 * Reads a JSON request body under a size limit, with a clear error for each way it
 * can be wrong. The limit is checked against Content-Length before reading, and
 * against the bytes actually read for chunked bodies.
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

/**
 * The body as text: the runtime's own promise when the length is declared (the runtime
 * decodes it natively; no async frame around it), chunked bodies counted as they come.
 */
function readLimited(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared === null) return readChunked(request, limit);
  if (Number(declared) > limit) return Promise.reject(tooLarge(limit));
  try {
    return request.text();
  } catch (err) {
    return Promise.reject(err);
  }
}

async function readChunked(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return decoder.decode(Buffer.concat(chunks));
}

/** A body that could not be read: our own errors (too large) as they are, the runtime's as a 400. */
function unreadable(err: unknown): never {
  if (err instanceof ApiError) throw err;
  throw badRequest("The request body could not be read.");
}

/** The parsed body, which must be a JSON object: one promise on the runtime's read, no async frames of its own. */
export function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  return readLimited(request, limit).then(parseJsonObject, unreadable);
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
