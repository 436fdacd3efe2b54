/**
 * The request path's view of tracing: a span it can name, attribute, end and hand on,
 * and the tracer that opens a request's first span. With tracing off every span is
 * NOOP_SPAN, one shared object whose methods do nothing, so a call builds no span and
 * allocates nothing for it; code that would compute an attribute at some cost checks
 * `recording` first.
 */

export type AttributeValue = string | number | boolean | readonly string[];

export interface TraceIds {
  traceId: string;
  spanId: string;
}

export interface TraceSpan {
  /** Attributes set on it are exported (false when tracing is off or the trace was not sampled). */
  readonly recording: boolean;
  /** Sets an attribute; undefined and null are skipped. Never prompt, completion, tool or document text. */
  set(key: string, value: AttributeValue | undefined | null): void;
  rename(name: string): void;
  /** A child span, started now; `client` for a call to another service (a provider). */
  child(name: string, client?: boolean): TraceSpan;
  /** Marks the span failed with the error's code (an ApiError's `code`, or its name), never its message. */
  fail(err: unknown): void;
  /** Keeps the span open past `end()` until the returned release is called (a stream still flowing). */
  hold(): () => void;
  /** Ends the span once (later calls do nothing); with holds outstanding, when the last is released. */
  end(): void;
  /** This span's W3C `traceparent` (null when tracing is off), to send onward or return to the caller. */
  traceparent(): string | null;
  /** The caller's `tracestate`, carried on unchanged (null when there is none). */
  tracestate(): string | null;
  /** For log lines: null when tracing is off. */
  ids(): TraceIds | null;
}

const release = (): void => {};

export const NOOP_SPAN: TraceSpan = {
  recording: false,
  set() {},
  rename() {},
  child: () => NOOP_SPAN,
  fail() {},
  hold: () => release,
  end() {},
  traceparent: () => null,
  tracestate: () => null,
  ids: () => null,
};

/** Opens the first span of a request, a child of the caller's `traceparent` when it sent one. */
export interface Tracing {
  readonly enabled: boolean;
  startRequest(name: string, headers: Headers): TraceSpan;
  /** Exports what is buffered; at shutdown. */
  shutdown(): Promise<void>;
}

export const NO_TRACING: Tracing = {
  enabled: false,
  startRequest: () => NOOP_SPAN,
  shutdown: async () => {},
};
