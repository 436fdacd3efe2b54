/**
 * The four error envelopes: the one place that knows their shapes. Below http/ so that
 * providers can end a stream with an error event in the caller's format.
 */
import type { ApiError } from "./errors.ts";

export type Surface = "openai" | "messages" | "general" | "gateway";

/** Which envelope a path uses, for errors raised before a route is known (404, 413). */
export function surfaceForPath(path: string): Surface {
  if (path === "/api/v1/gateway") return "gateway";
  if (path === "/v1/messages" || path.startsWith("/v1/messages/")) return "messages";
  if (path.startsWith("/v1/")) return "openai";
  return "general";
}

function openAiType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/** The messages format derives `error.type` from the status. */
function messagesType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

export function errorBody(surface: Surface, err: ApiError): unknown {
  const details = err.details ? { details: err.details } : {};
  switch (surface) {
    case "openai":
      return { error: { message: err.message, type: openAiType(err.status), code: err.code, param: err.param, ...details } };
    case "messages":
      return { type: "error", error: { type: messagesType(err.status), message: err.message, code: err.code, ...details } };
    case "gateway":
      return { success: false, data: null, error: err.message, code: err.code, ...details };
    case "general":
      return { error: { code: err.code, message: err.message, details: err.details ?? {} } };
  }
}

/**
 * A failed Responses API response's `error`. OpenAI's description allows a fixed list of
 * codes (`server_error`, `rate_limit_exceeded`, `invalid_prompt`, ...), so the closest
 * is given and the gateway's own code rides along in `gw.code`, where a client that
 * knows the gateway reads it.
 */
export function responsesError(code: string, message: string): { code: string; message: string; gw: { code: string } } {
  const closest = /rate_limit|cap_exceeded|quota/.test(code)
    ? "rate_limit_exceeded"
    : code === "security_violation"
      ? "invalid_prompt"
      : "server_error";
  return { code: closest, message, gw: { code } };
}
