/** Operator endpoints: liveness, readiness (the store answers and we are not draining), Prometheus metrics. */
import type { MetricsRegistry } from "../../lib/metrics.ts";
import type { Store } from "../../store/store.ts";
import { VERSION } from "../../version.ts";
import { json } from "../json-response.ts";

export function healthzHandler() {
  return () => json({ status: "ok", version: VERSION });
}

/**
 * `shared` reports Redis when configured: a node without it still serves (local rate
 * limits, uncapped calls; capped calls 503), so Redis down marks it "degraded", not
 * unready; taking every node out of the load balancer at once would be worse.
 */
export function readyzHandler(store: Store, isDraining: () => boolean, shared: () => Record<string, string> | null = () => null) {
  return async () => {
    if (isDraining()) return json({ status: "draining" }, 503);
    const deps = shared();
    try {
      await store.ping();
    } catch {
      return json({ status: "store unavailable", store: "unavailable", ...deps }, 503);
    }
    if (deps === null) return json({ status: "ready" });
    return json({ status: deps.redis === "ok" ? "ready" : "degraded", store: "ok", ...deps });
  };
}

export function metricsHandler(registry: MetricsRegistry) {
  return () => new Response(registry.render(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } });
}
