/** OpenTelemetry's standard variables, as the gateway reads them. */
import { describe, expect, test } from "bun:test";
import { parseHeaderList, tracingConfigFrom } from "../../../src/lib/tracing/otel-config.ts";

describe("tracingConfigFrom", () => {
  test("off without an endpoint, and with OTEL_SDK_DISABLED=true", () => {
    expect(tracingConfigFrom({})).toBeNull();
    expect(tracingConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toBeNull();
  });

  test("the base endpoint gets /v1/traces; the signal's own endpoint is taken as given", () => {
    expect(tracingConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })?.url).toBe("http://c:4318/v1/traces");
    expect(
      tracingConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:9/x" })?.url,
    ).toBe("http://t:9/x");
  });

  test("defaults: protobuf, parent-based always on, service name gateway, 5 s batches", () => {
    expect(tracingConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toEqual({
      url: "http://c:4318/v1/traces",
      headers: {},
      protocol: "http/protobuf",
      serviceName: "gateway",
      sampler: "parentbased_always_on",
      ratio: 1,
      batchDelayMs: 5000,
    });
  });

  test("headers, sampler, ratio, protocol and service name are read", () => {
    const c = tracingConfigFrom({
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://c",
      OTEL_EXPORTER_OTLP_HEADERS: "x-honeycomb-team=abc%3D,other = 1",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "other=2",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "edge-gw",
    });
    expect(c).toMatchObject({
      headers: { "x-honeycomb-team": "abc=", other: "2" },
      sampler: "parentbased_traceidratio",
      ratio: 0.25,
      protocol: "http/json",
      serviceName: "edge-gw",
    });
  });

  test("a value it cannot honour is an error that names the variable, not silence", () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c" };
    expect(() => tracingConfigFrom({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL.*Collector/);
    expect(() => tracingConfigFrom({ ...base, OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => tracingConfigFrom({ ...base, OTEL_TRACES_SAMPLER_ARG: "2" })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => tracingConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "c:4318" })).toThrow(/http\(s\) URL/);
  });

  test("parseHeaderList skips pairs without a name", () => {
    expect(parseHeaderList("=x,a=1,b")).toEqual({ a: "1" });
  });
});
