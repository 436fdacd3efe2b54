/** Operator endpoints: liveness, readiness (the store answers and we are not draining), Prometheus metrics. */
import { timingSafeEqual } from "node:crypto";
import { unauthorized } from "../../lib/errors.ts";
import type { MetricsRegistry } from "../../lib/metrics.ts";
import { VERSION } from "../../version.ts";
import { json } from "../json-response.ts";
import type { RequestScope } from "../request-scope.ts";

export function healthzHandler() {
  return () => json({ status: "ok", version: VERSION });
}

/**
 * `storeReachable` is the readiness service's check (services/readiness.ts). `shared`
 * reports Redis when configured: a node without it still serves (local rate limits,
 * uncapped calls; capped calls 503), so Redis down marks it "degraded", not unready;
 * taking every node out of the load balancer at once would be worse. Redis refusing
 * this node's credentials is unready (src/state/redis/credential-watch.ts).
 */
export function readyzHandler(
  storeReachable: () => Promise<boolean>,
  isDraining: () => boolean,
  shared: () => Record<string, string> | null = () => null,
) {
  return async () => {
    if (isDraining()) return json({ status: "draining" }, 503);
    const deps = shared();
    if (!(await storeReachable())) return json({ status: "store unavailable", ...(deps && { store: "unavailable", ...deps }) }, 503);
    if (deps === null) return json({ status: "ready" });
    // Credentials Redis refuses are this node's to fix (a rotated password): out of the balancer, saying why.
    if (deps.redis === "refused") return json({ status: "redis credentials refused", store: "ok", ...deps }, 503);
    return json({ status: deps.redis === "ok" ? "ready" : "degraded", store: "ok", ...deps });
  };
}

/** With `token` (GW_METRICS_TOKEN), a scrape must send `Authorization: Bearer <token>`; compared in constant time. */
export function metricsHandler(registry: MetricsRegistry, token: string | null = null) {
  const expected = token === null ? null : Buffer.from(`Bearer ${token}`);
  return (scope: RequestScope) => {
    if (expected !== null) {
      const given = Buffer.from(scope.request.headers.get("authorization") ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw unauthorized("GET /metrics needs `Authorization: Bearer <GW_METRICS_TOKEN>`.");
    }
    return new Response(registry.render(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } });
  };
}
