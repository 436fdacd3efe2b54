/**
 * Builds the node's hot state: every piece in this process's memory, or, with
 * GW_REDIS_URL, the rate limiter, spend ledger, change bus and providers' reported
 * rate-limit states shared through Redis (the caches stay in memory and the shared bus
 * keeps them honest).
 */
import type { Config } from "../config.ts";
import type { Logger } from "../lib/log.ts";
import type { MetricsRegistry } from "../lib/metrics.ts";
import { InProcessChangeBus } from "./change-bus.ts";
import type { HotState, HotStateSettings, HotStateSources } from "./hot-state.ts";
import { MemoryKeyCache } from "./key-cache.ts";
import { MemoryLimitStates } from "./limit-states.ts";
import { MemorySpendLedger } from "./memory-spend-ledger.ts";
import { MemoryOrgSettings } from "./org-settings.ts";
import { MemoryProviderDirectory } from "./provider-directory.ts";
import { TokenBucketLimiter } from "./rate-limiter.ts";
import { RedisLimitStates } from "./redis/redis-limit-states.ts";
import { SharedState } from "./redis/shared-state.ts";

export function openMemoryHotState(settings: HotStateSettings, sources: HotStateSources, now: () => number = Date.now): HotState {
  return {
    keys: new MemoryKeyCache({ loader: sources.keyPrincipal, ttlMs: settings.keyCacheTtlS * 1000 }),
    providers: new MemoryProviderDirectory(sources.providerConfigs, sources.openCredentials, sources.authorize),
    settings: new MemoryOrgSettings(sources.preferences),
    limiter: new TokenBucketLimiter({ limit: settings.rateLimitRequests, windowS: settings.rateLimitWindowS, now }),
    ledger: new MemorySpendLedger(sources.spend, now),
    changes: new InProcessChangeBus(),
    limitStates: new MemoryLimitStates(),
    health: () => null,
    claimJob: async () => true,
    close: async () => {},
  };
}

/** The hot state the configuration asks for; `log` and `metrics` report the shared connection's news. */
export async function openHotState(config: Config, sources: HotStateSources, log: Logger, metrics: MetricsRegistry): Promise<HotState> {
  const memory = openMemoryHotState(config, sources);
  if (!config.redisUrl) return memory;
  const shared = await SharedState.open({
    url: config.redisUrl,
    timeoutMs: config.redisTimeoutMs,
    rateLimit: { limit: config.rateLimitRequests, windowS: config.rateLimitWindowS },
    spendFailOpen: config.spendFailOpen,
    spendStore: sources.spend,
    // With Redis away and fail-open chosen, this node's own ledger decides alone.
    localLedger: memory.ledger,
    metrics,
    log,
  });
  return {
    ...memory,
    limiter: shared.limiter,
    ledger: shared.ledger,
    changes: shared.bus,
    // With Redis away, this node's own memory decides, as the node alone would.
    limitStates: new RedisLimitStates(shared.redis, memory.limitStates),
    health: () => shared.health(),
    claimJob: (job, forMs) => shared.jobs.claim(job, forMs),
    close: () => shared.close(),
  };
}
