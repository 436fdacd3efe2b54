/**
 * The HTTP series on /metrics: requests by route and status, and latency by route.
 * Every label comes from a bounded vocabulary: route templates (or `unmatched`),
 * status codes, and the HTTP methods, any other method a client invents being `other`.
 */
import { Counter, type CounterSeries, Histogram, type HistogramSeries, type MetricsRegistry } from "../lib/metrics.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const LATENCY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** A route's series, kept by its name, then the method's label and the status: a request names no label list. */
interface RouteSeries {
  latency: HistogramSeries;
  requests: Map<string, Map<number, CounterSeries>>;
}

export class HttpMetrics {
  private readonly requests: Counter;
  private readonly latency: Histogram;
  /** Bounded as the labels are: route templates, the standard methods and `other`, status codes. */
  private readonly routes = new Map<string, RouteSeries>();

  constructor(registry: MetricsRegistry) {
    this.requests = registry.register(
      new Counter("gateway_http_requests_total", "HTTP requests by route template, method and status.", ["route", "method", "status"]),
    );
    this.latency = registry.register(
      new Histogram("gateway_http_request_duration_seconds", "Time to response headers, by route template.", ["route"], LATENCY_BUCKETS_S),
    );
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    let r = this.routes.get(route);
    if (r === undefined) {
      r = { latency: this.latency.seriesOf([route]), requests: new Map() };
      this.routes.set(route, r);
    }
    const label = METHODS.has(method) ? method : "other";
    let byStatus = r.requests.get(label);
    if (byStatus === undefined) {
      byStatus = new Map();
      r.requests.set(label, byStatus);
    }
    let s = byStatus.get(status);
    if (s === undefined) {
      s = this.requests.seriesOf([route, label, String(status)]);
      byStatus.set(status, s);
    }
    s.n++;
    this.latency.record(r.latency, seconds);
  }
}
