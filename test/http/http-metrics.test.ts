/** The HTTP series' labels stay bounded: a method a client invents is `other`, not a label of its own. */
import { expect, test } from "bun:test";
import { HttpMetrics } from "../../src/http/http-metrics.ts";
import { MetricsRegistry } from "../../src/lib/metrics.ts";

test("invented methods share one label; the standard ones keep theirs", () => {
  const registry = new MetricsRegistry();
  const m = new HttpMetrics(registry);
  m.observe("/v1/models", "GET", 200, 0.001);
  for (let n = 0; n < 1000; n++) m.observe("unmatched", `X-METHOD-${n}`, 404, 0.001);
  const lines = registry
    .render()
    .split("\n")
    .filter((l) => l.startsWith("gateway_http_requests_total{"));
  expect(lines).toEqual([
    'gateway_http_requests_total{route="/v1/models",method="GET",status="200"} 1',
    'gateway_http_requests_total{route="unmatched",method="other",status="404"} 1000',
  ]);
});

test("each route, method and status counts in its own series; latency per route", () => {
  const registry = new MetricsRegistry();
  const m = new HttpMetrics(registry);
  for (const status of [200, 200, 429, 200]) m.observe("/v1/chat/completions", "POST", status, 0.002);
  m.observe("/v1/chat/completions", "GET", 405, 0.001);
  m.observe("/v1/models", "GET", 200, 0.001);
  const text = registry.render();
  expect(text.split("\n").filter((l) => l.startsWith("gateway_http_requests_total{"))).toEqual([
    'gateway_http_requests_total{route="/v1/chat/completions",method="POST",status="200"} 3',
    'gateway_http_requests_total{route="/v1/chat/completions",method="POST",status="429"} 1',
    'gateway_http_requests_total{route="/v1/chat/completions",method="GET",status="405"} 1',
    'gateway_http_requests_total{route="/v1/models",method="GET",status="200"} 1',
  ]);
  expect(text).toContain('gateway_http_request_duration_seconds_count{route="/v1/chat/completions"} 5');
  expect(text).toContain('gateway_http_request_duration_seconds_bucket{route="/v1/chat/completions",le="0.001"} 1');
});
