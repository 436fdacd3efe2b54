/**
 * Tracing on the OpenTelemetry SDK: spans batched and exported over OTLP/HTTP
 * (protobuf or JSON), sampled as configured, parented on the caller's W3C trace
 * context. Loaded only when tracing is on (start-tracing.ts imports it lazily), so a
 * gateway without an endpoint never loads the SDK. Spans are parented explicitly,
 * span to child, instead of through a context manager: the request path already
 * carries its span, and an async-context store would cost every call, traced or not.
 */
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import type { TracingConfig } from "./otel-config.ts";
import { type AttributeValue, NOOP_SPAN, type TraceIds, type TraceSpan, type Tracing } from "./trace-span.ts";

const headerGetter: TextMapGetter<Headers> = {
  get: (h, key) => h.get(key) ?? undefined,
  keys: (h) => [...h.keys()],
};

function samplerFor(c: TracingConfig): Sampler {
  switch (c.sampler) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(c.ratio);
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(c.ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The error's code for the span status: an ApiError's `code`, else its name; never its message (it may quote the caller). */
function codeOf(err: unknown): { code: string; status?: number } {
  if (err && typeof err === "object") {
    const e = err as { code?: unknown; status?: unknown; name?: unknown };
    const status = typeof e.status === "number" ? e.status : undefined;
    if (typeof e.code === "string") return { code: e.code, status };
    if (typeof e.name === "string") return { code: e.name, status };
  }
  return { code: "error" };
}

class OtelSpan implements TraceSpan {
  private holds = 0;
  private endWanted = false;
  private ended = false;

  constructor(
    private readonly span: Span,
    private readonly tracer: Tracer,
  ) {}

  get recording(): boolean {
    return this.span.isRecording();
  }

  set(key: string, value: AttributeValue | undefined | null): void {
    if (!this.ended && value !== undefined && value !== null) this.span.setAttribute(key, value as Attributes[string]);
  }

  rename(name: string): void {
    if (!this.ended) this.span.updateName(name);
  }

  child(name: string, client = false): TraceSpan {
    const parent: Context = trace.setSpan(ROOT_CONTEXT, this.span);
    return new OtelSpan(this.tracer.startSpan(name, { kind: client ? SpanKind.CLIENT : SpanKind.INTERNAL }, parent), this.tracer);
  }

  fail(err: unknown): void {
    if (this.ended) return;
    const { code, status } = codeOf(err);
    this.span.setAttribute("error.type", code);
    if (status !== undefined) this.span.setAttribute("gw.error.status", status);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  }

  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.endWanted && this.holds === 0) this.finish();
    };
  }

  end(): void {
    this.endWanted = true;
    if (this.holds === 0) this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end();
  }

  traceparent(): string | null {
    const c = this.span.spanContext();
    return `00-${c.traceId}-${c.spanId}-0${(c.traceFlags & 1).toString(16)}`;
  }

  tracestate(): string | null {
    return this.span.spanContext().traceState?.serialize() || null;
  }

  ids(): TraceIds {
    const c = this.span.spanContext();
    return { traceId: c.traceId, spanId: c.spanId };
  }
}

export class OtelTracing implements Tracing {
  readonly enabled = true;
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(config: TracingConfig, version: string, exporter: SpanExporter) {
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": config.serviceName, "service.version": version }),
      sampler: samplerFor(config),
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: config.batchDelayMs })],
    });
    this.tracer = this.provider.getTracer("gateway", version);
  }

  startRequest(name: string, headers: Headers): TraceSpan {
    const parent = headers.has("traceparent") ? this.propagator.extract(ROOT_CONTEXT, headers, headerGetter) : ROOT_CONTEXT;
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
    return span === undefined ? NOOP_SPAN : new OtelSpan(span, this.tracer);
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}
