/**
 * Every piece of state a node keeps between requests that scale-out replaces, as one
 * bundle the runtime builds once: the caches in front of the store, the rate limiter,
 * the spend ledger and the change bus that keeps the caches honest. `openHotState`
 * (open-hot-state.ts) picks the implementation from the configuration.
 */
import type { KeyPrincipal, OrgPreferences, ProviderConfigRecord } from "../domain/types.ts";
import type { TierVerdicts } from "../policy/provider-authorization.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import type { ProviderCredentials } from "../providers/credentials.ts";
import type { ChangeBus } from "./change-bus.ts";
import type { KeyCache } from "./key-cache.ts";
import type { LimitStates } from "./limit-states.ts";
import type { OrgSettings } from "./org-settings.ts";
import type { ProviderDirectory } from "./provider-directory.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import type { SpendLedger, SpendStore } from "./spend-ledger.ts";

export interface HotState {
  keys: KeyCache;
  providers: ProviderDirectory;
  settings: OrgSettings;
  limiter: RateLimiter;
  ledger: SpendLedger;
  changes: ChangeBus;
  /** Providers' reported rate-limit states as the alert check last announced them (shared on Redis: once for every node). */
  limitStates: LimitStates;
  /** What /readyz reports of the shared state (Redis and the change subscription); null in memory. */
  health(): Record<string, string> | null;
  /**
   * Whether this node runs a periodic job now: with several nodes the first to claim it
   * for the period does, the others skip (jobs are idempotent, so when unsure: run).
   */
  claimJob(job: string, forMs: number): Promise<boolean>;
  /** Closes connections (a shared implementation); the memory one has nothing to close. */
  close(): Promise<void>;
}

/** Where the caches and the ledger load from (the store, behind these narrow functions). */
export interface HotStateSources {
  keyPrincipal: (keyHash: string) => Promise<KeyPrincipal | null>;
  providerConfigs: (orgId: string) => Promise<ProviderConfigRecord[]>;
  /** Decrypts a configuration's credentials (once per load, not per call). */
  openCredentials: (rec: ProviderConfigRecord) => ProviderCredentials;
  /** Works out which tiers may call a provider (once per load). */
  authorize: (kind: ProviderKind, rec: ProviderConfigRecord) => TierVerdicts;
  preferences: (orgId: string) => Promise<OrgPreferences>;
  spend: SpendStore;
}

/** The settings hot state reads from the configuration. */
export interface HotStateSettings {
  keyCacheTtlS: number;
  rateLimitRequests: number;
  rateLimitWindowS: number;
}
