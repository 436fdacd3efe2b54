/**
 * Renders an ApiError as a response in the envelope of the surface that failed.
 * Messages never carry secrets; 5xx messages are generic.
 */
import { errorBody, type Surface } from "../lib/error-bodies.ts";
import type { ApiError } from "../lib/errors.ts";

export { type Surface, surfaceForPath } from "../lib/error-bodies.ts";

export function renderError(surface: Surface, err: ApiError): Response {
  const headers: Record<string, string> = { "content-type": "application/json", ...err.headers };
  return new Response(JSON.stringify(errorBody(surface, err)), { status: err.status, headers });
}
