/**
 * The hot path's memory in `/metrics`: the key cache's hits, misses and entries, and the
 * write-behind buffer's pending events, lag, flushes and losses. Each gauge reads its
 * figure when scraped, so nothing on the request path counts for them.
 */
import { Gauge, type MetricsRegistry } from "../lib/metrics.ts";
import type { CacheStats } from "./cache.ts";
import type { UsageBufferStats } from "./usage-buffer.ts";

export function registerStateGauges(
  metrics: MetricsRegistry,
  keyCache: { stats(): CacheStats },
  usage: { stats(): UsageBufferStats },
): void {
  metrics.register(
    new Gauge("gateway_key_cache_hits_total", "API key lookups answered from memory.", () => keyCache.stats().hits, "counter"),
  );
  metrics.register(
    new Gauge("gateway_key_cache_misses_total", "API key lookups that went to the store.", () => keyCache.stats().misses, "counter"),
  );
  metrics.register(new Gauge("gateway_key_cache_entries", "API key records held in memory.", () => keyCache.stats().size));
  metrics.register(
    new Gauge("gateway_usage_pending_events", "Usage events waiting for the next write-behind flush.", () => usage.stats().pending),
  );
  metrics.register(
    new Gauge(
      "gateway_usage_flush_lag_seconds",
      "Age of the oldest usage event not yet in the store.",
      () => usage.stats().flushLagMs / 1000,
    ),
  );
  metrics.register(
    new Gauge(
      "gateway_usage_flush_duration_seconds",
      "Duration of the last write-behind flush.",
      () => usage.stats().lastFlushDurationMs / 1000,
    ),
  );
  metrics.register(
    new Gauge(
      "gateway_usage_flush_failures_total",
      "Write-behind flushes that failed and were retried.",
      () => usage.stats().failures,
      "counter",
    ),
  );
  metrics.register(
    new Gauge(
      "gateway_usage_refused_events_total",
      "Usage events the store refused for good (a constraint, a value its column cannot hold), set aside so the rest were written.",
      () => usage.stats().refusedEvents,
      "counter",
    ),
  );
  metrics.register(
    new Gauge(
      "gateway_usage_dropped_events_total",
      "Usage events dropped because the store stayed unwritable past GW_USAGE_BUFFER_MAX_EVENTS.",
      () => usage.stats().droppedEvents,
      "counter",
    ),
  );
}
