/** The key cache's and the write-behind buffer's figures, as a scrape of /metrics reads them. */
import { expect, test } from "bun:test";
import type { KeyPrincipal, UsageEvent } from "../../src/domain/types.ts";
import { MetricsRegistry } from "../../src/lib/metrics.ts";
import { MemoryKeyCache } from "../../src/state/key-cache.ts";
import { registerStateGauges } from "../../src/state/state-gauges.ts";
import { UsageBuffer } from "../../src/state/usage-buffer.ts";
import { usageEvent } from "../support/records.ts";

const event: UsageEvent = usageEvent("o1", "k1", {
  id: "evt_1",
  requestId: "r1",
  promptTokens: 1,
  completionTokens: 1,
  costMicros: 10,
  latencyMs: 1,
  createdAt: 1000,
});

/** The value of one unlabelled series in the text exposition. */
function valueOf(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`${name} is not rendered`);
  return Number(line.slice(name.length + 1));
}

test("each gauge reads its figure when scraped, with its type", async () => {
  const keys = new MemoryKeyCache({
    ttlMs: 60_000,
    loader: async () => ({ key: { id: "k1", revokedAt: null } }) as unknown as KeyPrincipal,
  });
  let now = 5_000;
  const usage = new UsageBuffer({ intervalMs: 60_000, maxEvents: 1000, write: async () => {}, now: () => now });
  const metrics = new MetricsRegistry();
  registerStateGauges(metrics, keys, usage);
  try {
    await keys.get("h1");
    keys.get("h1");
    usage.record(event);
    now = 7_500;
    const text = metrics.render();
    expect(valueOf(text, "gateway_key_cache_hits_total")).toBe(1);
    expect(valueOf(text, "gateway_key_cache_misses_total")).toBe(1);
    expect(valueOf(text, "gateway_key_cache_entries")).toBe(1);
    expect(valueOf(text, "gateway_usage_pending_events")).toBe(1);
    expect(valueOf(text, "gateway_usage_flush_lag_seconds")).toBe(2.5);
    for (const name of ["gateway_usage_flush_duration_seconds", "gateway_usage_refused_events_total", "gateway_usage_dropped_events_total"])
      expect(valueOf(text, name)).toBe(0);
    expect(text).toContain("# TYPE gateway_key_cache_hits_total counter");
    expect(text).toContain("# TYPE gateway_usage_flush_failures_total counter");
    expect(text).toContain("# TYPE gateway_key_cache_entries gauge");
    // Scraped again after a flush: the figures are read anew, not kept from the first scrape.
    await usage.flush();
    expect(valueOf(metrics.render(), "gateway_usage_pending_events")).toBe(0);
  } finally {
    await usage.stop();
  }
});
