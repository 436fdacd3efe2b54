/** A request's trace: its span's HTTP attributes, and the trace ids its log lines carry. */
import type { Identity } from "../domain/identity.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";

/** What of a request's scope its trace reads (the request runner's scope is one). */
interface RequestScope {
  readonly trace: TraceSpan;
  readonly request: Request;
  readonly route: string;
  readonly requestId: string;
  readonly identity: Identity | null;
}

/** A log line's trace fields (none when tracing is off), so it can be found from the caller's own trace. */
export function traceFields(scope: RequestScope): { trace_id?: string; span_id?: string } {
  const ids = scope.trace.ids();
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** The HTTP conventions' attributes of a request's span. */
export function traceRequest(scope: RequestScope): void {
  const t = scope.trace;
  t.set("http.request.method", scope.request.method);
  t.set("http.route", scope.route);
  t.set("gw.request_id", scope.requestId);
}

export function traceResponse(scope: RequestScope, status: number): void {
  const t = scope.trace;
  t.set("http.response.status_code", status);
  const id = scope.identity;
  if (id) t.set("gw.org.id", id.organization.id);
  if (status >= 500) t.fail({ code: String(status), status });
}
