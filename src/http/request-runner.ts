/**
 * The frame around every request: request id, client address, admission
 * (authenticate + rate limit), error rendering in the surface's envelope, the
 * rate-limit headers every response carries, metrics and the one log line.
 * Surfaces stay thin: they decode, call a service or the pipeline, and encode.
 */
import type { Server } from "bun";
import { ApiError, toApiError } from "../lib/errors.ts";
import { cameFromThisGateway } from "../providers/hop.ts";
import type { RequestTimer } from "../lib/json-body.ts";
import type { Logger } from "../lib/log.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import { NO_TRACING, NOOP_SPAN, type Tracing } from "../lib/tracing/trace-span.ts";
import { type Authenticator, OriginRequired } from "../pipeline/authenticate.ts";
import { bucketForAddress, bucketForIdentity, decideCharge, takeToken } from "../pipeline/rate-limit.ts";
import type { Identity } from "../domain/identity.ts";
import type { ToolGrant } from "../domain/mcp-records.ts";
import type { RateLimiter } from "../state/rate-limiter.ts";
import type { DeferredCharge, DeferringLimiter } from "../state/rate-charge.ts";
import { renderError } from "./error-envelopes.ts";
import { traceFields, traceRequest, traceResponse } from "./request-trace.ts";
import type { HttpMetrics } from "./http-metrics.ts";
import type { AdmittedScope, ReadOnlyProbe, RequestScope, RunnableRoute } from "./request-scope.ts";

export interface RunnerDeps {
  authenticator: Authenticator;
  /** With `defer` (the Redis limiter), a model call's charge may travel in its spend reservation. */
  limiter: RateLimiter & Partial<DeferringLimiter>;
  metrics: HttpMetrics;
  log: Logger;
  trustProxy: boolean;
  /**
   * Whether a caller's model calls reserve spend (a cap applies): only then is the charge
   * held back to travel in the reservation (rate-charge.ts). Absent: whenever the route
   * and the limiter allow.
   */
  reservesSpend?: (identity: Identity) => boolean;
  /** Counts a key's use (requestCount, lastUsed) through the write-behind buffer. */
  onKeyUsed: (keyId: string) => void;
  /** OpenTelemetry tracing; off by default. */
  tracing?: Tracing;
  /** Runs the telemetry later (tests fire it themselves); by default one timer, re-armed for each batch. */
  schedule?: (fn: () => void, delayMs: number) => void;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** An IPv6 address with its zone is at most 45 characters; a forwarded entry is cut there and a little beyond. */
const MAX_ADDRESS_CHARS = 64;

/** A provider configured at the gateway's own address: refused at the first hop, never followed round. */
const LOOP = new ApiError(
  508,
  "loop_detected",
  "This request came from this gateway itself: a provider's address points back at the gateway.",
);

/**
 * How long after a response its metrics and log line are recorded. Off the response
 * path because, with requests apart (a stream every 100 ms), they run on cold caches
 * and cost ~100 µs before the first byte; and after a timer, not `setImmediate`,
 * because a stream's first byte waits for the provider's first chunk, an I/O event
 * that comes after the turn's immediates. Recorded together, they run on warm code.
 */
const TELEMETRY_DELAY_MS = 1;

/** A response whose headers are out and whose telemetry is still to be recorded. */
interface Finished {
  scope: RequestScope;
  status: number;
  /** Time to the response's headers. */
  seconds: number;
}

export class RequestRunner {
  /** Responses whose headers are out and whose metrics and log line are not recorded yet. */
  private finished: Finished[] = [];

  private readonly schedule: (fn: () => void, delayMs: number) => void;
  private readonly tracing: Tracing;

  constructor(private readonly deps: RunnerDeps) {
    this.schedule = deps.schedule ?? this.rearm;
    this.tracing = deps.tracing ?? NO_TRACING;
  }

  async run(target: RunnableRoute, request: Request, server: Server<unknown> | null): Promise<Response> {
    const { route } = target;
    const surface = target.surfaceOf ? target.surfaceOf(request) : target.surface;
    const startedAt = performance.now();
    const incoming = request.headers.get("x-request-id");
    const scope: RequestScope = {
      requestId: incoming !== null && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID(),
      ip: this.clientAddress(request, server),
      surface,
      route,
      request,
      server,
      startedAtMs: Date.now(),
      rate: null,
      identity: null,
      // API routes only: health checks, pages and scrapes would bury the calls.
      trace: target.admission.startsWith("identity") ? this.tracing.startRequest(`${request.method} ${route}`, request.headers) : NOOP_SPAN,
    };
    if (scope.trace.recording) traceRequest(scope);
    let response: Response;
    try {
      if (cameFromThisGateway(request.headers)) throw LOOP;
      if (target.admission === "identity") {
        // Admitted at once (the key and the bucket in memory, the usual call): not awaited, no turn.
        const admitted = this.admit(scope, target.readOnly, target.deferCharge);
        response = await target.handler(admitted instanceof Promise ? await admitted : admitted);
      } else if (target.admission === "identity-or-tool-grant") response = await target.handler(await this.admitOrGrant(scope));
      else {
        if (target.admission === "address") await takeToken(this.deps.limiter, bucketForAddress(scope.ip), scope);
        response = await target.handler(scope);
      }
      if (scope.charge) await decideCharge(scope.charge, (d) => (scope.rate = d));
    } catch (err) {
      const apiError = toApiError(scope.charge ? await this.chargedFirst(scope, err) : err);
      // Only the unexpected (a 500) earns a stack trace; a provider that is down or slow is a warning line.
      if (apiError.status === 500)
        this.deps.log.error("request failed", {
          ...traceFields(scope),
          requestId: scope.requestId,
          route,
          error: String((err as Error)?.stack ?? err),
        });
      else if (apiError.status > 500)
        this.deps.log.warn("request failed", {
          ...traceFields(scope),
          requestId: scope.requestId,
          route,
          status: apiError.status,
          code: apiError.code,
          error: apiError.message,
        });
      response = renderError(surface, apiError);
    }
    this.finish(scope, response, startedAt);
    return response;
  }

  /**
   * Authenticates the caller and charges their bucket; a failed attempt is charged to the
   * address. At once when the key and the bucket are in memory (the usual call).
   */
  private admit(scope: RequestScope, readOnly?: ReadOnlyProbe, deferCharge = false): MaybePromise<AdmittedScope> {
    const found = this.authenticate(scope, readOnly);
    if (found instanceof Promise)
      return found.then(
        (identity) => this.charged(scope, identity, null, deferCharge),
        (err) => this.refusedAtAddress(scope, err),
      );
    return this.charged(scope, found, null, deferCharge);
  }

  /** As `admit`, for the routes that also take a tool grant (`/mcp`). */
  private async admitOrGrant(scope: RequestScope): Promise<AdmittedScope> {
    let found: { identity: Identity; grant: ToolGrant | null };
    try {
      found = await this.deps.authenticator.authenticateOrGrant(scope.request);
    } catch (err) {
      return this.refusedAtAddress(scope, err);
    }
    return this.charged(scope, found.identity, found.grant, false);
  }

  /** A failed authentication is charged to the client's address, then reported. */
  private async refusedAtAddress(scope: RequestScope, err: unknown): Promise<never> {
    await takeToken(this.deps.limiter, bucketForAddress(scope.ip), scope);
    throw err;
  }

  /** The caller named on the scope, then their bucket charged (or the charge held back for the reservation to carry). */
  private charged(scope: RequestScope, identity: Identity, grant: ToolGrant | null, deferCharge: boolean): MaybePromise<AdmittedScope> {
    // Set before the charge: a caller refused for rate is still named in the log line.
    // A grant's calls are its holder's: the same bucket, the same policy.
    // Written on the scope itself: no temporary object to copy from.
    scope.identity = identity;
    const admitted = scope as AdmittedScope;
    if (grant) (admitted as { grant?: ToolGrant }).grant = grant;
    if (identity.kind === "serviceAccount") this.deps.onKeyUsed(identity.key.id);
    const bucket = bucketForIdentity(identity);
    // Only a call with a reservation to travel in waits: any other is charged here, as on every route.
    const defer = deferCharge ? this.deps.limiter.defer : undefined;
    const charge = defer && this.deps.reservesSpend?.(identity) !== false ? defer.call(this.deps.limiter, bucket) : null;
    if (charge) {
      scope.charge = charge;
      return admitted;
    }
    // In memory (the usual call): charged at once, no closure built.
    const taken = takeToken(this.deps.limiter, bucket, scope);
    return taken instanceof Promise ? admittedOnceCharged(taken, admitted) : admitted;
  }

  /** A held-back charge is decided before the request's own error is reported: a caller over its limit hears 429 first, as if charged first. */
  private async chargedFirst(scope: RequestScope, err: unknown): Promise<unknown> {
    try {
      await decideCharge(scope.charge as DeferredCharge, (d) => (scope.rate = d));
      return err;
    } catch (refused) {
      return refused;
    }
  }

  /**
   * A session call without Origin (curl with a cookie) is refused as possibly cross-site,
   * unless the route says this request only reads: then it is authenticated as read-only.
   * A refusal is always a rejected promise (so `admit` charges the address for it).
   */
  private authenticate(scope: RequestScope, readOnly?: ReadOnlyProbe): MaybePromise<Identity> {
    let found: MaybePromise<Identity>;
    try {
      found = this.deps.authenticator.authenticate(scope.request);
    } catch (err) {
      return this.readOnlyRetry(scope, err, readOnly);
    }
    return found instanceof Promise ? found.catch((err) => this.readOnlyRetry(scope, err, readOnly)) : found;
  }

  private async readOnlyRetry(scope: RequestScope, err: unknown, readOnly?: ReadOnlyProbe): Promise<Identity> {
    if (!(err instanceof OriginRequired) || !readOnly) throw err;
    const { request, server } = scope;
    // The probe reads a copy of the body; the server knows the request itself, whose timeout its read holds off.
    const held: RequestTimer | null = server && { timeout: (_copy, seconds) => server.timeout(request, seconds) };
    if (!(await readOnly(request.clone() as Request, held))) throw err;
    return this.deps.authenticator.authenticate(request, true);
  }

  /** The response's own headers now; its metrics and log line `TELEMETRY_DELAY_MS` later. */
  private finish(scope: RequestScope, response: Response, startedAt: number): void {
    // A response built with its headers (a model call's) is not asked for them: the getter makes a Headers object.
    if (response !== scope.framed) {
      const h = response.headers;
      const rate = scope.rate ?? this.deps.limiter.peek(bucketForAddress(scope.ip));
      h.set("x-request-id", scope.requestId);
      // The messages clients read the vendor's own name for it (the SDK's `_request_id`, its errors' `requestID`).
      if (scope.surface === "messages") h.set("request-id", scope.requestId);
      h.set("x-ratelimit-limit", String(rate.limit));
      h.set("x-ratelimit-remaining", String(rate.remaining));
      h.set("x-ratelimit-reset", String(rate.resetAtS));
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const span = scope.trace;
    if (span !== NOOP_SPAN) {
      // Returned so a caller without tracing can still quote the trace; a stream's span ends with the stream.
      const traceparent = span.traceparent();
      if (traceparent) response.headers.set("traceparent", traceparent);
      if (span.recording) traceResponse(scope, response.status);
      span.end();
    }
    if (this.finished.push({ scope, status: response.status, seconds }) === 1) this.schedule(this.record, TELEMETRY_DELAY_MS);
  }

  /** The telemetry's timer: made once, then re-armed (`refresh`), not a timer made for every response after a pause. */
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** Re-arms the one timer (a fired timer's `refresh` schedules it again); made on the first response. */
  private readonly rearm = (fn: () => void, delayMs: number): void => {
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(fn, delayMs);
  };

  /** Records the metrics and the log line of every finished response; also before a scrape and at shutdown. */
  readonly record = (): void => {
    const finished = this.finished;
    if (finished.length === 0) return;
    this.finished = [];
    const logged = this.deps.log.enabled("info");
    for (const { scope, status, seconds } of finished) {
      this.deps.metrics.observe(scope.route, scope.request.method, status, seconds);
      if (!logged) continue;
      const id = scope.identity;
      const ids = scope.trace.ids();
      const fields = {
        requestId: scope.requestId,
        method: scope.request.method,
        route: scope.route,
        status,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        ip: scope.ip,
        orgId: id?.organization.id,
        keyId: id?.kind === "serviceAccount" ? id.key.id : undefined,
        userId: id?.kind === "user" ? id.id : undefined,
      };
      // Tracing off (the usual case): the fields as they are, no copy to put trace ids first.
      this.deps.log.info("request", ids ? { trace_id: ids.traceId, span_id: ids.spanId, ...fields } : fields);
    }
  };

  private clientAddress(request: Request, server: Server<unknown> | null): string {
    if (this.deps.trustProxy) {
      // The load balancer appends the address it saw to whatever the client sent: only the
      // last entry is its word; the ones before it are the caller's to choose (audit rows,
      // the per-address rate limit).
      const forwarded = request.headers.get("x-forwarded-for");
      const last = forwarded
        ?.slice(forwarded.lastIndexOf(",") + 1)
        .trim()
        .slice(0, MAX_ADDRESS_CHARS);
      if (last) return last;
    }
    return server?.requestIP(request)?.address ?? "unknown";
  }
}

async function admittedOnceCharged(charging: Promise<void>, admitted: AdmittedScope): Promise<AdmittedScope> {
  await charging;
  return admitted;
}
