/**
 * A provider's failure status as the gateway's error: what the caller is told, and (through
 * its code and status, `isProviderFault`) whether it counts against the provider's health.
 */
import { ApiError } from "../lib/errors.ts";

/** Service Unavailable, and the messages-format vendor's Overloaded. */
const UNAVAILABLE = new Set([503, 529]);
/**
 * The provider's own timeouts: Request Timeout (the platform's `ModelTimeoutException`, the
 * model took too long) and Gateway Timeout (the messages vendor's `timeout_error`). Both
 * vendors' SDKs retry a 408 as a passing failure (openai-node and anthropic-sdk-typescript
 * `src/client.ts`, `shouldRetry`), as the gateway's own deadline passing is one.
 */
const TIMED_OUT = new Set([408, 504]);
/** Failed Dependency: the platform's model failed behind it (`ModelErrorException`), the provider's failure, not the request's. */
const DEPENDENCY_FAILED = 424;

/**
 * A provider's failure as the gateway's error, by the HTTP status it gave: a whole answer's,
 * or the one a stream's error event stands for (wire-format.ts, `errorOf`), so a failure
 * mid-stream is recorded and counted as the same failure answered whole.
 */
export function providerFailure(
  status: number,
  message: string,
  providerName: string,
  headers?: Record<string, string>,
  from: "answer" | "stream event" = "answer",
): ApiError {
  const how = from === "answer" ? `it answered HTTP ${status}` : `its stream sent an error event, read as HTTP ${status}`;
  // Temporarily unavailable or overloaded: the provider said so, and another (or a later) call may succeed.
  if (UNAVAILABLE.has(status))
    return new ApiError(503, "provider_unavailable", `${providerName} is unavailable (${how}): ${message}`, { headers });
  // Counted against the provider's health as its lateness is when the gateway's deadline passes.
  if (TIMED_OUT.has(status)) return new ApiError(504, "provider_timeout", `${providerName} timed out (${how}): ${message}`);
  if (status >= 500 || status < 400 || status === DEPENDENCY_FAILED)
    return new ApiError(502, "provider_error", `${providerName} failed (HTTP ${status}): ${message}`);
  if (status === 429) return new ApiError(429, "rate_limit_exceeded", `${providerName} is rate limiting this key: ${message}`, { headers });
  return new ApiError(status, "provider_error", `${providerName}: ${message}`);
}
