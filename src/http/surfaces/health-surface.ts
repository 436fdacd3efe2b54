/** Operator endpoints: liveness, readiness (the store answers and we are not draining), Prometheus metrics. */
import type { MetricsRegistry } from "../../lib/metrics.ts";
import { VERSION } from "../../version.ts";
import { json } from "../json-response.ts";

export function healthzHandler() {
  return () => json({ status: "ok", version: VERSION });
}

/** `storeReachable` is the readiness service's check (services/readiness.ts). */
export function readyzHandler(storeReachable: () => Promise<boolean>, isDraining: () => boolean) {
  return async () => {
    if (isDraining()) return json({ status: "draining" }, 503);
    return (await storeReachable()) ? json({ status: "ready" }) : json({ status: "store unavailable" }, 503);
  };
}

export function metricsHandler(registry: MetricsRegistry) {
  return () => new Response(registry.render(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } });
}
