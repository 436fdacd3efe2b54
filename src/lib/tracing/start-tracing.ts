/**
 * Tracing as configured by OpenTelemetry's standard variables: off (NO_TRACING, the
 * SDK never loaded) without an endpoint, else spans exported over OTLP/HTTP. The
 * collector's address is the operator's own setting, like Redis or Postgres, so it is
 * not subject to the egress policy that guards the addresses callers and admins name.
 */
import type { TracingConfig } from "./otel-config.ts";
import { NO_TRACING, type Tracing } from "./trace-span.ts";

export async function startTracing(config: TracingConfig | null, version: string): Promise<Tracing> {
  if (!config) return NO_TRACING;
  const { OtelTracing } = await import("./otel-tracing.ts");
  const exporterOptions = { url: config.url, headers: config.headers };
  const exporter =
    config.protocol === "http/json"
      ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter(exporterOptions)
      : new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter(exporterOptions);
  return new OtelTracing(config, version, exporter);
}
