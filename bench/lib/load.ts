/**
 * Load against one target: autocannon for throughput and latency (every response's
 * time is kept at microsecond precision, which autocannon's own histogram rounds to
 * milliseconds), and a one-connection stream reader for time to first byte.
 */
import autocannon from "autocannon";
import { percentile } from "./stats.ts";

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * A body per request instead of one for all: `n` counts every request this process
   * sent, across runs and targets, so no body is sent twice (a cache in the target
   * meets none it has seen). Load mode only.
   */
  bodyAt?: (n: number) => string;
}

/** Requests sent with `bodyAt` so far, by this process. */
let numbered = 0;

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Latency in microseconds. */
  p50: number;
  p90: number;
  p99: number;
  /** Responses whose status was not the expected one, and socket errors. */
  errors: number;
  /** Connection errors and timeouts only. */
  socketErrors: number;
  statuses: Record<string, number>;
}

export async function runLoad(
  baseUrl: string,
  req: LoadRequest,
  opts: { connections: number; seconds: number; expectStatus: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let unexpected = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl + req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        ...(req.bodyAt ? { requests: [{ setupRequest: numberedBody(req.bodyAt) }] } : {}),
        connections: opts.connections,
        duration: opts.seconds,
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === opts.expectStatus) latencies.push(ms * 1000);
      else unexpected++;
    });
  });
  const requests = latencies.length + unexpected;
  return {
    requests,
    seconds: opts.seconds,
    rps: requests / opts.seconds,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    errors: unexpected + result.errors + result.timeouts,
    socketErrors: result.errors + result.timeouts,
    statuses,
  };
}

function numberedBody(bodyAt: (n: number) => string) {
  return (r: autocannon.Request) => ({ ...r, body: bodyAt(numbered++) });
}

export interface StreamTiming {
  requests: number;
  /** Microseconds, medians and p99 over the requests. */
  ttfbP50: number;
  ttfbP99: number;
  totalP50: number;
  totalP99: number;
  /** Reads per stream (median): close to the chunk count means nothing buffered the chunks. */
  readsP50: number;
  errors: number;
}

/** One connection, one stream after another, for `seconds`. */
export async function timeStreams(baseUrl: string, req: LoadRequest, seconds: number): Promise<StreamTiming> {
  const ttfb: number[] = [];
  const total: number[] = [];
  const reads: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const res = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: req.body });
    if (res.status !== 200 || !res.body) {
      errors++;
      await res.text();
      continue;
    }
    const reader = res.body.getReader();
    let first = 0;
    let n = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      if (n === 0) first = performance.now();
      n++;
    }
    const ended = performance.now();
    ttfb.push((first - started) * 1000);
    total.push((ended - started) * 1000);
    reads.push(n);
  }
  return {
    requests: total.length,
    ttfbP50: percentile(ttfb, 50),
    ttfbP99: percentile(ttfb, 99),
    totalP50: percentile(total, 50),
    totalP99: percentile(total, 99),
    readsP50: percentile(reads, 50),
    errors,
  };
}
