/**
 * OpenTelemetry's standard variables, read once at start: where traces go, with which
 * headers, under which service name and sampler. Tracing is off unless an endpoint is
 * set (and always with OTEL_SDK_DISABLED=true), as the SDKs of other languages do.
 */

export type OtlpProtocol = "http/protobuf" | "http/json";

export type SamplerName =
  | "always_on"
  | "always_off"
  | "traceidratio"
  | "parentbased_always_on"
  | "parentbased_always_off"
  | "parentbased_traceidratio";

export interface TracingConfig {
  /** The traces URL, `/v1/traces` included. */
  url: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
  serviceName: string;
  sampler: SamplerName;
  /** For the ratio samplers, 0 to 1. */
  ratio: number;
  /** Milliseconds between two exports of the batch (OTEL_BSP_SCHEDULE_DELAY). */
  batchDelayMs: number;
}

const SAMPLERS: readonly SamplerName[] = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
];

type Env = Record<string, string | undefined>;

/** The variables read here (and by the batch exporter), for `--help`. */
export const OTEL_VARIABLES = [
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  "OTEL_SERVICE_NAME",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_BSP_MAX_QUEUE_SIZE",
  "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
  "OTEL_SDK_DISABLED",
] as const;

const value = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

/** `k1=v1,k2=v2`, values percent-decoded (the specification's form for OTEL_EXPORTER_OTLP_HEADERS). */
export function parseHeaderList(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw) return out;
  for (const pair of raw.split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const v = pair.slice(at + 1).trim();
    try {
      out[name] = decodeURIComponent(v);
    } catch {
      out[name] = v;
    }
  }
  return out;
}

/** The traces endpoint: the signal's own URL as given, or the base endpoint with `/v1/traces` appended. */
function tracesUrl(env: Env): string | undefined {
  const own = value(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (own) return own;
  const base = value(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined;
}

/** The configuration, or null when tracing is off. Throws on a setting it cannot honour, so a typo is not silence. */
export function tracingConfigFrom(env: Env): TracingConfig | null {
  if (value(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return null;
  const url = tracesUrl(env);
  if (!url) return null;
  if (!/^https?:\/\//i.test(url)) throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT: an http(s) URL, got "${url.slice(0, 100)}"`);
  const protocol = value(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? value(env, "OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf or http/json (grpc is not built in: send to a Collector over HTTP), got "${protocol}"`,
    );
  const sampler = (value(env, "OTEL_TRACES_SAMPLER") ?? "parentbased_always_on") as SamplerName;
  if (!SAMPLERS.includes(sampler)) throw new Error(`OTEL_TRACES_SAMPLER: one of ${SAMPLERS.join(", ")}, got "${sampler}"`);
  const rawRatio = value(env, "OTEL_TRACES_SAMPLER_ARG");
  const ratio = rawRatio === undefined ? 1 : Number(rawRatio);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new Error(`OTEL_TRACES_SAMPLER_ARG: a number from 0 to 1, got "${rawRatio}"`);
  const rawDelay = value(env, "OTEL_BSP_SCHEDULE_DELAY");
  const batchDelayMs = rawDelay === undefined ? 5000 : Number(rawDelay);
  if (!Number.isInteger(batchDelayMs) || batchDelayMs < 1) throw new Error(`OTEL_BSP_SCHEDULE_DELAY: milliseconds, got "${rawDelay}"`);
  return {
    batchDelayMs,
    url,
    headers: {
      ...parseHeaderList(value(env, "OTEL_EXPORTER_OTLP_HEADERS")),
      ...parseHeaderList(value(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS")),
    },
    protocol,
    serviceName: value(env, "OTEL_SERVICE_NAME") ?? "gateway",
    sampler,
    ratio,
  };
}
