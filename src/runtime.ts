/**
 * Builds the running gateway from its configuration: store, secrets, hot state,
 * services, operations and the request runner, and knows how to shut them down in
 * order (stop admitting, flush the write-behind buffer, write the hot snapshot,
 * close the store). The command line and the tests both start here.
 */
import { join } from "node:path";
import type { Config } from "./config.ts";
import { ApiKeyHasher } from "./domain/api-key.ts";
import { HttpMetrics } from "./http/http-metrics.ts";
import { RequestRunner } from "./http/request-runner.ts";
import type { Logger } from "./lib/log.ts";
import { MasterKey } from "./lib/master-key.ts";
import { Gauge, MetricsRegistry } from "./lib/metrics.ts";
import { createOperationRegistry } from "./ops/index.ts";
import type { OperationDeps, OperationRegistry } from "./ops/registry.ts";
import { Accountant } from "./pipeline/account.ts";
import { Authenticator } from "./pipeline/authenticate.ts";
import { ModelCalls } from "./pipeline/model-call.ts";
import { configuredProviderVerdicts } from "./policy/provider-authorization.ts";
import { loadCatalog } from "./providers/catalog/catalog.ts";
import { SecretBox } from "./lib/secret-box.ts";
import type { ServiceDeps } from "./services/deps.ts";
import { scheduleMaintenance } from "./services/maintenance.ts";
import { ModelList } from "./services/model-list.ts";
import { openCredentials } from "./services/providers.ts";
import { OrgSettings } from "./state/org-settings.ts";
import { ProviderDirectory } from "./state/provider-directory.ts";
import { SpendLedger } from "./state/spend-ledger.ts";
import { KeyCache } from "./state/key-cache.ts";
import { TokenBucketLimiter } from "./state/rate-limiter.ts";
import { readSnapshot, writeSnapshot } from "./state/snapshot.ts";
import { UsageBuffer } from "./state/usage-buffer.ts";
import { openStore } from "./store/open-store.ts";
import type { Store } from "./store/store.ts";

export interface Runtime {
  config: Config;
  log: Logger;
  store: Store;
  services: OperationDeps;
  keyCache: KeyCache;
  limiter: TokenBucketLimiter;
  usage: UsageBuffer;
  metrics: MetricsRegistry;
  operations: OperationRegistry;
  runner: RequestRunner;
  /** True once shutdown has begun: /readyz answers 503 so load balancers move away. */
  draining: boolean;
  shutdown(): Promise<void>;
}

/** The store and the services over it, without the server (for `init`, `user add`, `login-link`). */
export async function openServices(config: Config): Promise<{ store: Store; services: ServiceDeps; masterKey: MasterKey }> {
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await store.migrate();
  const masterKey = MasterKey.load(config.masterKey, config.dataDir);
  const hasher = new ApiKeyHasher(masterKey.derive("api-key-hash"));
  return { store, masterKey, services: { store, hasher, onKeyChanged: () => {}, onPreferencesChanged: () => {}, now: Date.now } };
}

export async function createRuntime(config: Config, log: Logger): Promise<Runtime> {
  const catalog = loadCatalog(config.catalogPath);
  const { store, services: base, masterKey } = await openServices(config);
  const keyCache = new KeyCache({ loader: (hash) => store.getKeyPrincipalByHash(hash), ttlMs: config.keyCacheTtlS * 1000 });
  const box = new SecretBox(masterKey.derive("provider-key-encryption"));
  const directory = new ProviderDirectory(
    (orgId) => store.listProviderConfigs(orgId),
    (rec) => openCredentials(box, rec),
    (kind, rec) => configuredProviderVerdicts(catalog, kind, rec),
  );
  const limiter = new TokenBucketLimiter({ limit: config.rateLimitRequests, windowS: config.rateLimitWindowS });
  const snapshotPath = join(config.dataDir, "hot-state.msgpack");
  const snapshot = readSnapshot(snapshotPath);
  if (snapshot) limiter.restore(snapshot.buckets);

  const usage = new UsageBuffer({
    write: (batch) => store.writeFlush(batch),
    intervalMs: config.flushIntervalMs,
    maxEvents: config.flushMaxEvents,
    onError: (err, batch) => log.error("usage flush failed; will retry", { events: batch.events.length, error: String(err) }),
  });

  const accountant = new Accountant(catalog, usage, config.durability === "strict");
  const settings = new OrgSettings((orgId) => store.getOrgPreferences(orgId));
  const ledger = new SpendLedger({
    keyLifetimeMicros: async (keyId) => (await store.getApiKey(keyId))?.spentMicros ?? 0,
    spentSince: (orgId, keyId, from) => store.sumCostMicros(orgId, keyId, from),
  });
  const calls = new ModelCalls({ resolve: { catalog, directory }, spend: { ledger, settings, catalog }, accountant, upstreamTimeoutMs: config.upstreamTimeoutS * 1000 });
  // /v1/models omits what the caller may not call (the directory's precomputed verdicts).
  const models = new ModelList(catalog, directory, log);
  const services: OperationDeps = {
    ...base,
    onKeyChanged: (hash) => keyCache.evict(hash),
    onPreferencesChanged: (orgId) => settings.evict(orgId),
    box,
    catalog,
    onProvidersChanged: (orgId) => {
      directory.evict(orgId);
      // A new address or key may answer with another model list.
      models.forget(orgId);
    },
    calls,
    models,
  };

  const metrics = new MetricsRegistry();
  const httpMetrics = new HttpMetrics(metrics);
  metrics.register(new Gauge("gateway_key_cache_hits_total", "API key lookups answered from memory.", () => keyCache.stats().hits, "counter"));
  metrics.register(new Gauge("gateway_key_cache_misses_total", "API key lookups that went to the store.", () => keyCache.stats().misses, "counter"));
  metrics.register(new Gauge("gateway_key_cache_entries", "API key records held in memory.", () => keyCache.stats().size));
  metrics.register(new Gauge("gateway_usage_pending_events", "Usage events waiting for the next write-behind flush.", () => usage.stats().pending));
  metrics.register(new Gauge("gateway_usage_flush_lag_seconds", "Age of the oldest usage event not yet in the store.", () => usage.stats().flushLagMs / 1000));
  metrics.register(new Gauge("gateway_usage_flush_duration_seconds", "Duration of the last write-behind flush.", () => usage.stats().lastFlushDurationMs / 1000));
  metrics.register(new Gauge("gateway_usage_flush_failures_total", "Write-behind flushes that failed and were retried.", () => usage.stats().failures, "counter"));

  const trustedOrigins = config.publicUrl ? [new URL(config.publicUrl).origin] : [];
  // Through services.now, so tests that move the services' clock move the sessions' too.
  const authenticator = new Authenticator({ hasher: services.hasher, keys: keyCache, store, trustedOrigins, now: () => services.now() });
  const runner = new RequestRunner({
    authenticator,
    limiter,
    metrics: httpMetrics,
    log,
    trustProxy: config.trustProxy,
    onKeyUsed: (keyId) => usage.touch(keyId),
  });
  // Responses' telemetry is recorded just after them; a scrape records what is still waiting first.
  metrics.onCollect(runner.record);

  const stopMaintenance = scheduleMaintenance(store, config.usageRetentionDays, log);

  const rt: Runtime = {
    config,
    log,
    store,
    services,
    keyCache,
    limiter,
    usage,
    metrics,
    operations: createOperationRegistry(),
    runner,
    draining: false,
    async shutdown() {
      rt.draining = true;
      stopMaintenance();
      // Refused streams still being read in the background are accounted before the last flush.
      await calls.stop();
      await usage.stop();
      writeSnapshot(snapshotPath, { version: 1, writtenAt: Date.now(), buckets: limiter.snapshot() });
      await store.close();
      runner.record();
      log.flush();
    },
  };
  return rt;
}
