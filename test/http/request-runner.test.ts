import { expect, test } from "bun:test";
import { HttpMetrics } from "../../src/http/http-metrics.ts";
import { RequestRunner } from "../../src/http/request-runner.ts";
import { createLogger } from "../../src/lib/log.ts";
import { MetricsRegistry } from "../../src/lib/metrics.ts";
import { ApiKeyHasher } from "../../src/domain/api-key.ts";
import type { KeyPrincipal } from "../../src/domain/types.ts";
import { badRequest } from "../../src/lib/errors.ts";
import { Authenticator } from "../../src/pipeline/authenticate.ts";
import type { Store } from "../../src/store/store.ts";
import { TokenBucketLimiter } from "../../src/state/rate-limiter.ts";

/**
 * A runner whose log lines are collected and whose delayed telemetry waits in `timers`
 * until the test fires it; "free" routes never authenticate, so no authenticator is needed.
 */
function runner(opts: { trustProxy?: boolean; ownTimer?: boolean; authenticator?: Authenticator } = {}) {
  const timers: (() => void)[] = [];
  const keyUses: string[] = [];
  const fireTimers = () => {
    for (const fn of timers.splice(0)) fn();
  };
  const registry = new MetricsRegistry();
  const lines: string[] = [];
  const log = createLogger("info", (chunk) => lines.push(...chunk.trim().split("\n")));
  const r = new RequestRunner({
    authenticator: opts.authenticator ?? ({} as Authenticator),
    limiter: new TokenBucketLimiter({ limit: 10, windowS: 60 }),
    metrics: new HttpMetrics(registry),
    log,
    trustProxy: opts.trustProxy ?? false,
    onKeyUsed: (keyId) => void keyUses.push(keyId),
    schedule: opts.ownTimer ? undefined : (fn) => void timers.push(fn),
  });
  registry.onCollect(r.record);
  return { r, registry, lines, log, timers, fireTimers, keyUses };
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

test("a key's use is counted at admission, for an answered request and a refused one alike, before any telemetry", async () => {
  const principal = {
    key: { id: "key_1", revokedAt: null },
    serviceAccount: { id: "sa_1", role: "member" },
    organization: { id: "org_1" },
  } as unknown as KeyPrincipal;
  const authenticator = new Authenticator({
    hasher: new ApiKeyHasher(new Uint8Array(32).fill(1)),
    keys: { get: () => principal },
    store: {} as Store,
    trustedOrigins: [],
    secureCookies: false,
    now: () => 0,
  });
  const { r, keyUses, fireTimers } = runner({ authenticator });
  const key = { authorization: `Bearer gw_live_${"A".repeat(40)}` };
  const route = (handler: () => Response) => ({ surface: "openai" as const, route: "/v1/x", admission: "identity" as const, handler });
  const answered = await r.run(
    route(() => new Response("ok")),
    get("/v1/x", key),
    null,
  );
  expect(answered.status).toBe(200);
  const refused = () => {
    throw badRequest("no");
  };
  expect((await r.run(route(refused), get("/v1/x", key), null)).status).toBe(400);
  // Counted when the key is authenticated, so a usage row flushed with it never shows a key not yet used.
  expect(keyUses).toEqual(["key_1", "key_1"]);
  fireTimers();
  expect(keyUses).toEqual(["key_1", "key_1"]);
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
