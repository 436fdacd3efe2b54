/**
 * What a request carries through the runner (its scope, and once admitted its caller),
 * and how a route declares its admission with the handler that fits it: the types
 * surfaces and the runner share, apart from the runner's own work.
 */
import type { Identity } from "../domain/identity.ts";
import type { ToolGrant } from "../domain/mcp-records.ts";
import type { RequestTimer } from "../lib/json-body.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";
import type { DeferredCharge } from "../state/rate-charge.ts";
import type { RateDecision } from "../state/rate-limiter.ts";
import type { Surface } from "./error-envelopes.ts";

export interface RequestScope {
  readonly requestId: string;
  readonly ip: string;
  readonly surface: Surface;
  readonly route: string;
  readonly request: Request;
  /** The server the request came in on: the body readers hold its idle timeout off while the body comes (json-body.ts). */
  readonly server: RequestTimer | null;
  /** Wall-clock start (epoch ms), for usage latency. */
  readonly startedAtMs: number;
  /** The rate-limit decision this request is charged to; reported in the headers. */
  rate: RateDecision | null;
  identity: Identity | null;
  /** The request's span: the caller's trace continued (API routes, with tracing on), else the no-op. */
  readonly trace: TraceSpan;
  /** The rate-limit charge held back for the call's spend reservation to carry (routes with `deferCharge`, on Redis). */
  charge?: DeferredCharge;
  /** The response whose surface wrote the frame's headers itself (`frameHeaders`, call-response.ts): the runner does not set them again. */
  framed?: Response;
}

/** The scope of a request whose caller was authenticated and charged: its handler's only way in. */
export interface AdmittedScope extends RequestScope {
  readonly identity: Identity;
  /** Set when the caller presented a tool grant (only on routes admitted "identity-or-tool-grant"): what it may reach. */
  readonly grant?: ToolGrant;
}

/**
 * Whether a request only reads (it gets a copy of the request; its body is still the
 * handler's), with the server's timeout for the request itself to hold off while it reads.
 */
export type ReadOnlyProbe = (request: Request, server: RequestTimer | null) => Promise<boolean>;

/** A public route's handler. */
export type Handler = (scope: RequestScope) => Response | Promise<Response>;
/** An identity route's handler: it runs only after admission, and receives the caller. */
export type IdentityHandler = (scope: AdmittedScope) => Response | Promise<Response>;

/**
 * How a route is charged before its handler runs, with the handler that fits it. The
 * runner admits; a handler cannot forget to, and an identity handler cannot be given
 * to a public route (its scope would lack the identity).
 */
export type Admitted =
  /** API routes: the key or session is authenticated, then its bucket charged. */
  | {
      admission: "identity";
      handler: IdentityHandler;
      readOnly?: ReadOnlyProbe;
      /**
       * Model calls: every provider request passes the attempt's spend reservation first
       * (attempt-stages.ts), so a shared limiter's charge may wait and travel in that
       * reservation's command, one Redis round trip for both; the runner decides it at
       * the end if nothing did, before any other error is reported.
       */
      deferCharge?: boolean;
    }
  /**
   * `/mcp`: as "identity", and a tool grant is accepted too (a provider calling back for
   * a model's hosted `mcp` tool, docs/mcp.md). Every other route refuses a grant.
   */
  | { admission: "identity-or-tool-grant"; handler: IdentityHandler }
  /** "address": charged to the client address (public pages, unknown paths). "free": not charged; headers report the address bucket (health checks, metrics scrapes). */
  | { admission: "address" | "free"; handler: Handler };

export type Admission = Admitted["admission"];

/** What the runner needs of a route: where its errors render, its name in metrics and logs, its admission. */
export type RunnableRoute = Admitted & {
  surface: Surface;
  route: string;
  /** A route both formats' clients call (`/v1/models`): the envelope the request's own headers ask for. */
  surfaceOf?: (request: Request) => Surface;
};
