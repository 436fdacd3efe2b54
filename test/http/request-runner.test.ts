import { expect, test } from "bun:test";
import { HttpMetrics } from "../../src/http/http-metrics.ts";
import { RequestRunner } from "../../src/http/request-runner.ts";
import { createLogger } from "../../src/lib/log.ts";
import { MetricsRegistry } from "../../src/lib/metrics.ts";
import type { Authenticator } from "../../src/pipeline/authenticate.ts";
import { TokenBucketLimiter } from "../../src/state/rate-limiter.ts";

/**
 * A runner whose log lines are collected and whose delayed telemetry waits in `timers`
 * until the test fires it; "free" routes never authenticate, so no authenticator is needed.
 */
function runner(opts: { trustProxy?: boolean; ownTimer?: boolean } = {}) {
  const timers: (() => void)[] = [];
  const fireTimers = () => {
    for (const fn of timers.splice(0)) fn();
  };
  const registry = new MetricsRegistry();
  const lines: string[] = [];
  const log = createLogger("info", (chunk) => lines.push(...chunk.trim().split("\n")));
  const r = new RequestRunner({
    authenticator: {} as Authenticator,
    limiter: new TokenBucketLimiter({ limit: 10, windowS: 60 }),
    metrics: new HttpMetrics(registry),
    log,
    trustProxy: opts.trustProxy ?? false,
    onKeyUsed: () => {},
    schedule: opts.ownTimer ? undefined : (fn) => void timers.push(fn),
  });
  registry.onCollect(r.record);
  return { r, registry, lines, log, timers, fireTimers };
}

const free = (route: string, handler: () => Response) => ({ surface: "general" as const, route, admission: "free" as const, handler });

const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://gw.test${path}`, { headers });

test("a response carries its request id and rate-limit headers when it is returned", async () => {
  const { r } = runner();
  const res = await r.run(
    free("/healthz", () => new Response("ok")),
    get("/healthz", { "x-request-id": "req-1" }),
    null,
  );
  expect(res.headers.get("x-request-id")).toBe("req-1");
  expect(res.headers.get("x-ratelimit-limit")).toBe("10");
  expect(res.headers.get("x-ratelimit-remaining")).toBe("10");
  expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
});

test("a scrape right after a response counts it, though its telemetry is recorded after the response", async () => {
  const { r, registry, timers, fireTimers } = runner();
  await r.run(
    free("/healthz", () => new Response("ok")),
    get("/healthz"),
    null,
  );
  await r.run(
    free("/missing", () => new Response("no", { status: 404 })),
    get("/missing"),
    null,
  );
  const text = registry.render();
  expect(text).toContain('gateway_http_requests_total{route="/healthz",method="GET",status="200"} 1');
  expect(text).toContain('gateway_http_requests_total{route="/missing",method="GET",status="404"} 1');
  // Recorded once: a later scrape, and the timer, add nothing.
  expect(timers.length).toBe(1);
  fireTimers();
  expect(registry.render()).toContain('gateway_http_requests_total{route="/healthz",method="GET",status="200"} 1');
});

test("with its own timer, each batch of responses is recorded after them: the one timer is re-armed, batch after batch", async () => {
  const { r, lines } = runner({ ownTimer: true });
  const healthz = free("/healthz", () => new Response("ok"));
  for (const n of [1, 2, 3]) {
    await r.run(healthz, get("/healthz"), null);
    // The log line is the timer's work (no scrape here to record it): waited for up to five seconds.
    for (let i = 0; i < 500 && lines.length < n; i++) await Bun.sleep(10);
    expect(lines.length).toBe(n);
  }
});

test("every response gets one log line shortly after it, in order, and none is lost at shutdown", async () => {
  const { r, lines, log, timers, fireTimers } = runner();
  for (const id of ["a", "b"])
    await r.run(
      free("/healthz", () => new Response("ok")),
      get("/healthz", { "x-request-id": id }),
      null,
    );
  // Nothing is logged before the delayed telemetry runs; one timer serves both responses.
  log.flush();
  expect(lines).toEqual([]);
  expect(timers.length).toBe(1);
  fireTimers();
  log.flush();
  expect(lines.map((l) => JSON.parse(l))).toMatchObject([
    { level: "info", msg: "request", requestId: "a", method: "GET", route: "/healthz", status: 200 },
    { level: "info", msg: "request", requestId: "b", status: 200 },
  ]);
  // Shutdown records and writes what is still waiting, without a timer turn.
  await r.run(
    free("/healthz", () => new Response("ok")),
    get("/healthz", { "x-request-id": "last" }),
    null,
  );
  r.record();
  log.flush();
  expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ requestId: "last" });
});

test("behind a trusted proxy the client address is the entry the proxy appended, not one the caller wrote before it", async () => {
  const { r, lines, log, fireTimers } = runner({ trustProxy: true });
  const cases: [string, string][] = [
    // A load balancer appends the address it saw to what the client sent.
    ["6.6.6.6, 203.0.113.7", "203.0.113.7"],
    ["6.6.6.6,7.7.7.7 ,  203.0.113.8", "203.0.113.8"],
    ["2001:db8::1", "2001:db8::1"],
    [`${"9".repeat(5000)}`, "9".repeat(64)],
  ];
  for (const [forwarded] of cases)
    await r.run(
      free("/healthz", () => new Response("ok")),
      get("/healthz", { "x-forwarded-for": forwarded }),
      null,
    );
  fireTimers();
  log.flush();
  expect(lines.map((l) => JSON.parse(l).ip)).toEqual(cases.map(([, ip]) => ip));
});
