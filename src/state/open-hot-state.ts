/**
 * Builds the node's hot state. Today every piece lives in this process's memory; a
 * shared implementation (Redis) is chosen here from the configuration when present.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../lib/log.ts";
import { InProcessChangeBus } from "./change-bus.ts";
import type { HotState, HotStateSettings, HotStateSources } from "./hot-state.ts";
import { MemoryKeyCache } from "./key-cache.ts";
import { MemorySpendLedger } from "./memory-spend-ledger.ts";
import { MemoryOrgSettings } from "./org-settings.ts";
import { MemoryProviderDirectory } from "./provider-directory.ts";
import { TokenBucketLimiter } from "./rate-limiter.ts";

export function openMemoryHotState(settings: HotStateSettings, sources: HotStateSources, now: () => number = Date.now): HotState {
  return {
    keys: new MemoryKeyCache({ loader: sources.keyPrincipal, ttlMs: settings.keyCacheTtlS * 1000 }),
    providers: new MemoryProviderDirectory(sources.providerConfigs, sources.openCredentials, sources.authorize),
    settings: new MemoryOrgSettings(sources.preferences),
    limiter: new TokenBucketLimiter({ limit: settings.rateLimitRequests, windowS: settings.rateLimitWindowS, now }),
    ledger: new MemorySpendLedger(sources.spend, now),
    changes: new InProcessChangeBus(),
    close: async () => {},
  };
}

/** The hot state the configuration asks for (a shared implementation joins here); `log` is for its connection's news. */
export async function openHotState(config: Config, sources: HotStateSources, _log: Logger): Promise<HotState> {
  return openMemoryHotState(config, sources);
}
