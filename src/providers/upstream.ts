/**
 * Sending a request to a provider and turning its failures into gateway errors: a
 * timeout is 504, an unreachable provider 503, a provider 5xx 502, and a provider
 * 4xx keeps its status with the provider's own message (any credential it echoes
 * is cut out).
 */
import { ApiError } from "../lib/errors.ts";
import type { UpstreamRequest } from "./adapter.ts";

export interface SendOptions {
  /** Aborts when the caller goes away. */
  signal: AbortSignal;
  /** Until response headers arrive (and for a non-stream call, until `done()`). */
  timeoutMs: number;
  providerName: string;
}

export interface UpstreamResponse {
  response: Response;
  /** Stops the timeout clock (call once the body is consumed or handed to the client). */
  done(): void;
}

/** The caller disconnected: nothing is sent back, but the call is still accounted. */
export class ClientGone extends ApiError {
  constructor() {
    super(499, "client_closed_request", "The client closed the request.");
  }
}

export async function sendUpstream(req: UpstreamRequest, opts: SendOptions): Promise<UpstreamResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const onClientGone = () => controller.abort();
  opts.signal.addEventListener("abort", onClientGone, { once: true });
  const done = () => {
    clearTimeout(timer);
    opts.signal.removeEventListener("abort", onClientGone);
  };
  try {
    const response = await fetch(req.url, { method: req.method ?? "POST", headers: req.headers, body: req.body, signal: controller.signal, redirect: "manual" });
    return { response, done };
  } catch (err) {
    done();
    if (timedOut) throw new ApiError(504, "provider_timeout", `${opts.providerName} did not answer within ${Math.round(opts.timeoutMs / 1000)} s.`);
    if (opts.signal.aborted) throw new ClientGone();
    const code = (err as { code?: string })?.code;
    throw new ApiError(503, "provider_unavailable", `${opts.providerName} is unavailable: could not connect${code ? ` (${code})` : ""}.`);
  }
}

const MAX_ERROR_BYTES = 64 * 1024;

function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = body.error;
    if (typeof e === "string") return e;
    if (e && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
    if (typeof body.message === "string") return body.message;
  } catch {
    // not JSON: use the text
  }
  return text.trim() || "(no message)";
}

/** The gateway error for a non-2xx provider response. `secrets` are removed from the provider's message. */
export async function upstreamFailure(res: Response, providerName: string, secrets: string[]): Promise<ApiError> {
  const text = (await res.text()).slice(0, MAX_ERROR_BYTES);
  let message = providerMessage(text).slice(0, 1000);
  for (const s of secrets) if (s.length >= 8) message = message.replaceAll(s, "[redacted]");
  const retryAfter = res.headers.get("retry-after");
  const headers = retryAfter && /^\d+$/.test(retryAfter) ? { "retry-after": retryAfter } : undefined;
  if (res.status >= 500 || res.status < 400) return new ApiError(502, "provider_error", `${providerName} failed (HTTP ${res.status}): ${message}`);
  if (res.status === 429) return new ApiError(429, "rate_limit_exceeded", `${providerName} is rate limiting this key: ${message}`, { headers });
  return new ApiError(res.status, "provider_error", `${providerName}: ${message}`);
}
