/**
 * The one typed error every stage throws or returns. Surfaces render it in their own
 * envelope (see lib/error-bodies.ts); nothing else decides statuses or codes.
 */

export type ErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "payload_too_large"
  | "request_timeout"
  | "rate_limit_exceeded"
  | "spend_cap_exceeded"
  | "monthly_cap_exceeded"
  | "provider_blocked"
  | "tier_limit_exceeded"
  | "security_violation"
  | "wrong_endpoint"
  | "moe_routing_unavailable"
  | "model_not_found"
  | "provider_not_configured"
  | "provider_error"
  | "provider_unavailable"
  | "provider_timeout"
  | "model_substitution_detected"
  | "conflict"
  | "internal_server_error"
  | "service_unavailable"
  | "client_closed_request"
  | "loop_detected"
  | "stream_interrupted";

export interface ErrorOptions {
  /** Machine-readable extras, rendered as `details` in the general envelope (never secrets). */
  details?: Record<string, unknown>;
  /** The request field at fault, rendered as `param` in the chat-completions envelope. */
  param?: string | null;
  /** Extra response headers (Retry-After). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly details: Record<string, unknown> | undefined;
  readonly param: string | null;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    opts: ErrorOptions = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.details = opts.details;
    this.param = opts.param ?? null;
    this.headers = opts.headers;
  }
}

export const badRequest = (message: string, opts?: ErrorOptions) => new ApiError(400, "invalid_request", message, opts);
export const unauthorized = (message = "Missing or invalid API key or session.") => new ApiError(401, "unauthorized", message);

/** Anything that is not an ApiError becomes a 500 whose message reveals nothing internal. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(500, "internal_server_error", "The gateway hit an unexpected error; it has been logged.");
}
