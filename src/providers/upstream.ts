/**
 * Sending a request to a provider and turning its failures into gateway errors: a
 * timeout (the gateway's deadline, or the provider's own 408 or 504) is 504; an
 * unreachable provider, or one that says it is unavailable or overloaded (503, 529), is
 * 503; any other provider 5xx, or a 424 (its model failed), is 502; and any other
 * provider 4xx keeps its status with the provider's own message (any credential it
 * echoes is cut out).
 */
import type { TraceSpan } from "../lib/tracing/trace-span.ts";
import { ApiError } from "../lib/errors.ts";
import type { UpstreamRequest } from "./adapter.ts";
import { egressFetch } from "../lib/egress/egress-fetch.ts";
import { EgressRefused } from "../lib/egress/egress-policy.ts";
import { readAtMost } from "../lib/egress/bounded-body.ts";
import { HOP_HEADER, HOP_TOKEN } from "./hop.ts";
import { providerFailure } from "./provider-failure.ts";

/**
 * Whom a call is made for: their signal aborts when they go away. A server's Request
 * is one. The signal is read only by the watch, when it looks (every WATCH_MS), and
 * after a call failed: a served request makes its signal on first read, most calls
 * end before the watch looks, and one made late still reports a client that has
 * already left.
 */
export interface Caller {
  readonly signal: AbortSignal;
}

export interface SendOptions {
  caller: Caller;
  /** Until response headers arrive (and for a non-stream call, until `done()`). */
  timeoutMs: number;
  providerName: string;
  /** The attempt's span: its W3C context goes to the provider (which ignores it harmlessly, or joins the trace). */
  trace?: TraceSpan;
}

export interface UpstreamResponse {
  response: Response;
  /** Stops watching the call (once the body is consumed, or handed to the client, whose disconnect then cancels it). */
  done(): void;
}

/** The caller disconnected: nothing is sent back, but the call is still accounted. */
export class ClientGone extends ApiError {
  constructor() {
    super(499, "client_closed_request", "The client closed the request.");
  }
}

/** How often the watch looks: a client that leaves is let go of within this, and a deadline is kept to it. */
const WATCH_MS = 50;

/**
 * One call waiting for its provider: aborted when its client leaves or its deadline
 * passes. It is also what the caller gets back, so a call costs one object here.
 */
export class WatchedCall implements UpstreamResponse {
  response!: Response;
  /** fetch's promise of the response (`startUpstream`). */
  sending!: Promise<Response>;
  /** Its place in `watched`; -1 once let go of. */
  index = -1;
  timedOut = false;
  readonly controller = new AbortController();

  constructor(
    readonly caller: Caller,
    readonly deadline: number,
  ) {}

  done(): void {
    unwatch(this);
  }
}

/**
 * The calls waiting for providers, watched by one timer for the whole process rather
 * than a timer and an abort listener of their own: both cost more per call than the
 * rest of forwarding does. A plain array with each call knowing its index (removal
 * swaps the last one in), the call itself handed back: no Set and no closure per call.
 */
const watched: WatchedCall[] = [];
let watch: ReturnType<typeof setInterval> | null = null;
/**
 * Sweeps that found no call since one was last watched: the timer stops at `IDLE_SWEEPS`,
 * not at the first, so calls a moment apart (a stream every 100 ms) find it running
 * instead of each making it again (a timer made: about 6 µs of a paced call's first byte,
 * after its pause).
 */
let idleSweeps = 0;
/** A second without a call to watch: then the timer stops, and an idle gateway is not woken. */
const IDLE_SWEEPS = 20;

function unwatch(call: WatchedCall): void {
  const i = call.index;
  if (i < 0) return;
  const last = watched.pop() as WatchedCall;
  if (last !== call) {
    watched[i] = last;
    last.index = i;
  }
  call.index = -1;
}

function sweep(): void {
  const now = performance.now();
  // Backwards, so a call swapped into a freed place has been looked at already.
  for (let i = watched.length - 1; i >= 0; i--) {
    const call = watched[i] as WatchedCall;
    if (now < call.deadline && !call.caller.signal.aborted) continue;
    call.timedOut = !call.caller.signal.aborted;
    unwatch(call);
    call.controller.abort();
  }
  if (watched.length === 0 && ++idleSweeps >= IDLE_SWEEPS && watch) {
    clearInterval(watch);
    watch = null;
  }
}

/** Whether the watch's timer runs (tests: it outlives a call briefly, then stops, so an idle gateway is not woken). */
export function watchRunning(): boolean {
  return watch !== null;
}

function startWatching(call: WatchedCall): void {
  call.index = watched.length;
  watched.push(call);
  idleSweeps = 0;
  if (!watch) {
    watch = setInterval(sweep, WATCH_MS);
    watch.unref();
  }
}

export async function sendUpstream(req: UpstreamRequest, opts: SendOptions): Promise<UpstreamResponse> {
  if (req.local) return { response: await req.local(), done() {} };
  const call = startUpstream(req, opts);
  try {
    call.response = await call.sending;
    return call;
  } catch (err) {
    throw upstreamError(call, opts, err);
  }
}

/**
 * The call sent and watched, its response still to come in `sending`; a failure goes
 * through `upstreamError`. What `sendUpstream` does, less its own async frame: the model
 * call's attempt awaits the provider itself (forward.ts). Not for a sandbox's local answer.
 */
export function startUpstream(req: UpstreamRequest, opts: SendOptions): WatchedCall {
  const call = new WatchedCall(opts.caller, performance.now() + opts.timeoutMs);
  startWatching(call);
  try {
    // The egress policy: connect only to an address that was checked after resolution; no redirect followed.
    const headers: Record<string, string> = { ...req.headers, [HOP_HEADER]: HOP_TOKEN };
    const traceparent = opts.trace?.traceparent();
    if (traceparent) {
      headers.traceparent = traceparent;
      const tracestate = opts.trace!.tracestate();
      if (tracestate) headers.tracestate = tracestate;
    }
    call.sending = egressFetch(req.url, {
      method: req.method ?? "POST",
      headers,
      body: req.body,
      signal: call.controller.signal,
    });
  } catch (err) {
    call.sending = Promise.reject(err);
  }
  return call;
}

/** A started call that failed, let go of, as the gateway's error. */
export function upstreamError(call: WatchedCall, opts: SendOptions, err: unknown): ApiError {
  call.done();
  // Refused, unresolvable and closed targets all read the same: nothing about the network behind them.
  if (err instanceof EgressRefused) return new ApiError(503, "provider_unavailable", `${opts.providerName} is unreachable.`);
  if (call.timedOut) return deadlinePassed(opts);
  if (opts.caller.signal.aborted) return new ClientGone();
  return new ApiError(503, "provider_unavailable", `${opts.providerName} is unreachable.`);
}

const deadlinePassed = (opts: SendOptions) =>
  new ApiError(504, "provider_timeout", `${opts.providerName} did not answer within ${Math.round(opts.timeoutMs / 1000)} s.`);

/**
 * A whole answer whose body could not be read: the deadline passed while it came (504, as
 * for a late answer: the deadline covers a whole answer's body), its client left, or the
 * provider cut it off (502).
 */
export function unreadAnswer(up: UpstreamResponse, opts: SendOptions): ApiError {
  if (up instanceof WatchedCall && up.timedOut) return deadlinePassed(opts);
  if (opts.caller.signal.aborted) return new ClientGone();
  return new ApiError(502, "provider_error", `${opts.providerName} closed the connection before its answer was complete.`);
}

const MAX_ERROR_BYTES = 64 * 1024;
const utf8 = new TextDecoder();

/**
 * The provider's own message: `error.message` (chat and messages vendors), or the cloud
 * platform's `message` (or `Message`, as some AWS front ends write it; the AWS SDK reads
 * either: @smithy/smithy-client `decorateServiceException`).
 */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; Message?: unknown };
    const e = body.error;
    if (typeof e === "string") return e;
    if (e && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
    if (typeof body.message === "string") return body.message;
    if (typeof body.Message === "string") return body.Message;
  } catch {
    // not JSON: use the text
  }
  return text.trim() || "(no message)";
}

/**
 * The first `max` bytes of an error's body, the rest never read. A body cut off, or aborted
 * at the call's deadline or by its client leaving, gives what came: the status alone says
 * what failed.
 */
async function errorText(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const { bytes } = await readAtMost(res.body, max, true);
  return utf8.decode(bytes.subarray(0, max));
}

/** A whole answer longer than GW_MAX_ANSWER_BYTES: the provider's failure, and the prompt it read is charged. */
export class AnswerTooLarge extends ApiError {
  constructor(providerName: string, max: number) {
    super(
      502,
      "provider_error",
      `${providerName} answered with more than ${max} bytes, the most this gateway reads (GW_MAX_ANSWER_BYTES).`,
    );
  }
}

/**
 * A whole answer's body as text, or null when it is longer than `max` bytes (the rest is
 * not read). A Content-Length within the bound is read the cheap way, whole: the body
 * cannot outgrow it. Without one, over it, or with a Content-Encoding (the length is the
 * compressed size, and fetch inflates), the body is read piece by piece and given up once
 * past the bound, so memory stays bounded whatever the provider sends. A read that fails throws.
 */
export async function answerText(res: Response, max: number): Promise<string | null> {
  const length = res.headers.get("content-length");
  if (length !== null && Number(length) <= max && !res.headers.has("content-encoding")) return res.text();
  if (!res.body) return "";
  const { bytes, over } = await readAtMost(res.body, max, false);
  return over ? null : utf8.decode(bytes);
}

/**
 * `text` with every secret of the caller's provider configuration cut out (a provider's
 * error may quote the key it was sent). Values under 8 characters are left: cutting them
 * would mangle ordinary words, and no real key is that short.
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  for (const s of secrets) if (s.length >= 8 && text.includes(s)) text = text.replaceAll(s, "[redacted]");
  return text;
}

/**
 * The cloud platform's error name (`ThrottlingException`), which it sends in a header, not
 * the body: `x-amzn-ErrorType: <name>:<namespace URI>`, read as the AWS SDK reads it
 * (aws/aws-sdk-js-v3, packages/core `loadRestJsonErrorCode`: before the colon, after any `#`).
 */
function awsErrorName(headers: Headers): string | null {
  const value = headers.get("x-amzn-errortype");
  const name = value?.split(":")[0]?.split("#").pop();
  return name && /^[A-Za-z]{1,64}$/.test(name) ? name : null;
}

/** The gateway error for a non-2xx provider response. `secrets` are removed from the provider's message. */
export async function upstreamFailure(res: Response, providerName: string, secrets: string[]): Promise<ApiError> {
  const text = await errorText(res, MAX_ERROR_BYTES);
  const name = awsErrorName(res.headers);
  // Removed before the message is cut: a key across the cut would otherwise keep its first characters.
  const message = withoutSecrets(`${name ? `${name}: ` : ""}${providerMessage(text)}`, secrets).slice(0, 1000);
  return providerFailure(res.status, message, providerName, retryHeaders(res.headers));
}

/**
 * A provider's own wait, kept for the caller in the forms the official SDKs read
 * (`retry-after-ms` first, then `retry-after` in whole seconds); a date or anything else is
 * dropped rather than passed on unread.
 */
function retryHeaders(from: Headers): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  const seconds = from.get("retry-after");
  if (seconds && /^\d{1,6}$/.test(seconds)) headers = { "retry-after": seconds };
  const ms = from.get("retry-after-ms");
  if (ms && /^\d{1,9}(\.\d{1,3})?$/.test(ms)) headers = { ...headers, "retry-after-ms": ms };
  return headers;
}
