/**
 * Tracing as configured by OpenTelemetry's standard variables: off (NO_TRACING, the
 * SDK never loaded) without an endpoint, else spans exported over OTLP/HTTP. The
 * collector's address is the operator's own setting, like Redis or Postgres, so it is
 * not subject to the egress policy that guards the addresses callers and admins name.
 */
import type { TracingConfig } from "./otel-config.ts";
import { NO_TRACING, type Tracing } from "./trace-span.ts";

/** `warn` hears the SDK's own errors (an export that failed), which would otherwise go nowhere. */
export async function startTracing(config: TracingConfig | null, version: string, warn?: (message: string) => void): Promise<Tracing> {
  if (!config) return NO_TRACING;
  if (warn) {
    const { diag, DiagLogLevel } = await import("@opentelemetry/api");
    const say = (message: string, ...args: unknown[]) => warn([message, ...args.map(String)].join(" ").slice(0, 500));
    diag.setLogger({ error: say, warn: say, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
  }
  const { OtelTracing } = await import("./otel-tracing.ts");
  const exporterOptions = { url: config.url, headers: config.headers };
  const exporter =
    config.protocol === "http/json"
      ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter(exporterOptions)
      : new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter(exporterOptions);
  return new OtelTracing(config, version, exporter);
}
