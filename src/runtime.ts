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
import { startTracing } from "./lib/tracing/start-tracing.ts";
import { CallMetrics } from "./pipeline/call-metrics.ts";
import { VERSION } from "./version.ts";
import type { Logger } from "./lib/log.ts";
import { MasterKey } from "./lib/master-key.ts";
import { Gauge, Histogram, MetricsRegistry } from "./lib/metrics.ts";
import { createOperationRegistry } from "./ops/index.ts";
import type { OperationDeps, OperationRegistry } from "./ops/registry.ts";
import { Accountant } from "./pipeline/account.ts";
import { Authenticator } from "./pipeline/authenticate.ts";
import { mayReserve } from "./pipeline/reserve-spend.ts";
import { ModelCalls } from "./pipeline/model-call.ts";
import { ScanCache } from "./pipeline/scan-cache.ts";
import { ScanEvents } from "./services/scan-events.ts";
import { ProviderHealth } from "./state/provider-health.ts";
import { ProviderHealthMetrics } from "./state/provider-health-metrics.ts";
import { ProviderLimitCounter } from "./state/provider-limits.ts";
import { configuredProviderVerdicts } from "./policy/provider-authorization.ts";
import { loadCatalog } from "./providers/catalog/catalog.ts";
import { egressFetch } from "./lib/egress/egress-fetch.ts";
import { setEgressPolicy } from "./lib/egress/egress-policy.ts";
import { SecretBox } from "./lib/secret-box.ts";
import type { ServiceDeps } from "./services/deps.ts";
import { scheduleMaintenance } from "./services/maintenance.ts";
import { AlertChecker } from "./services/alerts/alert-checker.ts";
import { orgLimitStates } from "./services/rate-limits/org-rate-status.ts";
import { ProviderRateUsage } from "./state/provider-rate-usage.ts";
import { Notifier } from "./services/alerts/notifier.ts";
import { DEFAULT_DELIVERY } from "./services/alerts/webhook-delivery.ts";
import { ModelList } from "./services/model-list.ts";
import { openCredentials } from "./services/providers.ts";
import type { StateChange } from "./state/change-bus.ts";
import type { HotState } from "./state/hot-state.ts";
import { openHotState } from "./state/open-hot-state.ts";
import { loadTokenizer } from "./lib/token-estimate.ts";
import { ROUND_TRIP_BUCKETS } from "./state/redis/shared-state.ts";
import { readSnapshot, writeSnapshot } from "./state/snapshot.ts";
import { UsageBuffer } from "./state/usage-buffer.ts";
import { registerStateGauges } from "./state/state-gauges.ts";
import { openStore } from "./store/open-store.ts";
import type { McpGateway } from "./mcp/mcp-gateway.ts";
import { openMcpGateway } from "./mcp/open-mcp-gateway.ts";
import { toolServerDirectory } from "./mcp/tool-server-directory.ts";
import { ToolGrantTokens } from "./services/tool-grant-tokens.ts";
import type { Store } from "./store/store.ts";

export interface Runtime {
  config: Config;
  log: Logger;
  store: Store;
  services: OperationDeps;
  /** Caches, rate limiter, spend ledger and change bus (see state/hot-state.ts). */
  state: HotState;
  usage: UsageBuffer;
  metrics: MetricsRegistry;
  operations: OperationRegistry;
  runner: RequestRunner;
  /** The MCP gateway at `/mcp` (docs/mcp.md); apart from the model path. */
  mcp: McpGateway;
  /** True once shutdown has begun: /readyz answers 503 so load balancers move away. */
  draining: boolean;
  shutdown(): Promise<void>;
}

/** The store and the services over it, without the server (for `init`, `user add`, `login-link`). */
export async function openServices(
  config: Config,
  observeStore?: (seconds: number) => void,
): Promise<{ store: Store; services: ServiceDeps; masterKey: MasterKey }> {
  // Every process that may save or reach outbound addresses (the server, ./scripts/start's setup) applies the same egress policy.
  setEgressPolicy({ allowPrivate: config.allowPrivateEgress });
  const store = openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    postgres: { observe: observeStore, timeoutMs: config.storeTimeoutS * 1000 },
  });
  await store.migrate();
  let masterKey: MasterKey;
  try {
    masterKey = MasterKey.load(config.masterKey, config.dataDir, config.databaseUrl === null, (await store.masterKeyCheck()) === null);
  } catch (err) {
    await store.close();
    throw err;
  }
  // Every start and every node must hold the key the data was made with: another one answers 401 to every key made elsewhere.
  const check = masterKey.check();
  if ((await store.claimMasterKeyCheck(check, Date.now())) !== check) {
    await store.close();
    throw new Error(
      `this ${config.masterKey ? "GW_MASTER_KEY" : `master key (${join(config.dataDir, "master.key")})`} is not the one the database's API keys and provider keys were made with: give every node the same GW_MASTER_KEY`,
    );
  }
  const hasher = new ApiKeyHasher(masterKey.derive("api-key-hash"));
  return { store, masterKey, services: { store, hasher, onKeyChanged: () => {}, onPreferencesChanged: () => {}, now: Date.now } };
}

export async function createRuntime(config: Config, log: Logger): Promise<Runtime> {
  const catalog = loadCatalog(config.catalogPath);
  const metrics = new MetricsRegistry();
  const storeRoundTrips = config.databaseUrl?.startsWith("postgres")
    ? metrics.register(
        new Histogram(
          "gateway_postgres_round_trip_seconds",
          "Postgres statement round trips (key loads, usage flushes, operations).",
          [],
          ROUND_TRIP_BUCKETS,
        ),
      )
    : null;
  const {
    store,
    services: base,
    masterKey,
  } = await openServices(config, storeRoundTrips ? (s) => storeRoundTrips.observe([], s) : undefined);
  const box = new SecretBox(masterKey.derive("provider-key-encryption"));
  // Tool grants (hosted `mcp` tools calling back into /mcp) are sealed with a key of their own; on services' clock, as sessions are.
  const grants = new ToolGrantTokens(new SecretBox(masterKey.derive("tool-grant")), () => services.now());
  const state = await openHotState(
    config,
    {
      keyPrincipal: (hash) => store.getKeyPrincipalByHash(hash),
      providerConfigs: (orgId) => store.listProviderConfigs(orgId),
      openCredentials: (rec) => openCredentials(box, rec),
      authorize: (kind, rec) => configuredProviderVerdicts(catalog, kind, rec),
      preferences: (orgId) => store.getOrgPreferences(orgId),
      spend: {
        keyLifetimeMicros: (spendKeyId) => store.keyLineSpentMicros(spendKeyId),
        spentSince: (orgId, keyId, from) => store.sumCostMicros(orgId, keyId, from),
      },
    },
    log,
    metrics,
  );
  const { keys: keyCache, providers: directory, settings, limiter, ledger, changes } = state;
  // A node of several (shared state) loads the tokenizer before it serves: its first use would
  // otherwise stall every call in flight for a few hundred milliseconds, past shared-state deadlines.
  if (config.redisUrl !== null) loadTokenizer();
  // /v1/models omits what the caller may not call (the directory's precomputed verdicts).
  const models = new ModelList(catalog, directory, log);
  const snapshotPath = join(config.dataDir, "hot-state.msgpack");
  const snapshot = readSnapshot(snapshotPath);
  if (snapshot) limiter.restore(snapshot.buckets);

  const usage = new UsageBuffer({
    write: (batch) => store.writeFlush(batch),
    intervalMs: config.flushIntervalMs,
    maxEvents: config.flushMaxEvents,
    report: {
      failing: (err, batch, failures) =>
        log.error("usage flush failed; will retry", { events: batch.events.length, failures, error: String(err) }),
      recovered: (failures, downMs) => log.info("usage flush recovered", { failures, downMs }),
    },
    // Ids and the store's code only: a refusal's message may quote the row's values.
    onRefused: (rows, err) =>
      log.error("usage rows refused by the store; set aside", {
        events: rows.events.map((e) => e.id),
        keys: rows.keyTouches.map((t) => t.keyId),
        code: err.code,
      }),
    maxPending: config.usageBufferMaxEvents,
  });

  const accountant = new Accountant(catalog, usage, config.durability === "strict");
  const rateUsage = new ProviderRateUsage();
  const health = new ProviderHealth();
  const limitCounter = new ProviderLimitCounter();
  const verdicts = new ScanCache(config.scanCacheEntries);
  // The alert check, made below, hears each call refused under an organization's budget.
  let budgetRefused = (_orgId: string): void => {};
  const calls = new ModelCalls({
    resolve: { catalog, directory },
    spend: { ledger, settings, catalog, onBudgetRefusal: (orgId) => budgetRefused(orgId) },
    accountant,
    upstreamTimeoutMs: config.upstreamTimeoutS * 1000,
    streamIdleTimeoutMs: config.streamIdleTimeoutS * 1000,
    maxAnswerBytes: config.maxAnswerBytes,
    rateUsage,
    health,
    limits: { counter: limitCounter, now: Date.now },
    metrics: new CallMetrics(metrics),
    // After the provider answered: a failed write is logged, never the caller's error.
    etl: {
      recordEtlDocument: (d) => store.recordEtlDocument(d).catch((err) => log.error("etl figures not recorded", { error: String(err) })),
    },
    scans: new ScanEvents(store, log, metrics),
    verdicts,
    hostedTools: { servers: toolServerDirectory(store), grants, publicUrl: config.publicUrl },
  });
  const services: OperationDeps = {
    ...base,
    // Services announce what they changed; every node's caches (this one's included) evict on receipt.
    onKeyChanged: (keyHash) => changes.publish({ type: "key", keyHash }),
    onPreferencesChanged: (orgId) => changes.publish({ type: "preferences", orgId }),
    onProvidersChanged: (orgId) => changes.publish({ type: "providers", orgId }),
    box,
    catalog,
    calls,
    models,
    rateUsage,
    health,
    providerDirectory: directory,
  };

  changes.subscribe((change: StateChange) => {
    switch (change.type) {
      case "key":
        return keyCache.evict(change.keyHash);
      case "preferences":
        return settings.evict(change.orgId);
      case "providers":
        directory.evict(change.orgId);
        // A new address or key may answer with another model list.
        return models.forget(change.orgId);
      case "all":
        keyCache.clear();
        settings.clear();
        directory.clear();
        return models.forgetAll();
    }
  });
  metrics.register(new ProviderHealthMetrics(health, (model) => catalog.model(model) !== undefined));
  const httpMetrics = new HttpMetrics(metrics);
  // The key cache and the write-behind buffer, read when /metrics is scraped.
  registerStateGauges(metrics, keyCache, usage);
  metrics.register(
    new Gauge("gateway_scan_cache_hits_total", "Texts whose scan verdict was kept.", () => verdicts.stats().hits, "counter"),
  );
  metrics.register(new Gauge("gateway_scan_cache_misses_total", "Texts scanned and kept.", () => verdicts.stats().misses, "counter"));

  const trustedOrigins = config.publicUrl ? [new URL(config.publicUrl).origin] : [];
  // Through services.now, so tests that move the services' clock move the sessions' too.
  const authenticator = new Authenticator({
    hasher: services.hasher,
    keys: keyCache,
    store,
    trustedOrigins,
    secureCookies: config.publicUrl?.startsWith("https:") ?? false,
    now: () => services.now(),
    grants,
  });
  const tracing = await startTracing(config.tracing, VERSION, (message) => log.warn("tracing", { error: message }));
  const runner = new RequestRunner({
    tracing,
    authenticator,
    limiter,
    metrics: httpMetrics,
    log,
    trustProxy: config.trustProxy,
    onKeyUsed: (keyId) => usage.touch(keyId),
    reservesSpend: (identity) => mayReserve(settings, identity),
  });
  // Responses' telemetry is recorded just after them; a scrape records what is still waiting first.
  metrics.onCollect(runner.record);

  const stopMaintenance = scheduleMaintenance(
    store,
    { usageDays: config.usageRetentionDays, auditDays: config.auditRetentionDays, notificationDays: config.notificationRetentionDays },
    log,
    undefined,
    // One node of several runs each hour's pass (the others' would delete nothing more).
    (forMs) => state.claimJob("maintenance", forMs),
  );
  const notifier = new Notifier({
    store,
    box,
    log,
    delivery: { ...DEFAULT_DELIVERY, fetch: egressFetch, sleep: Bun.sleep, now: Date.now },
  });
  const alerts = new AlertChecker({
    store,
    notifier,
    log,
    now: Date.now,
    rateLimits: (orgId) => orgLimitStates(store, rateUsage, orgId, Date.now()),
    // A provider-reported state is announced once for every node on one Redis.
    limitStates: state.limitStates,
    // A refusal's budget check waits for the spend the cap counted to be flushed, on every node.
    afterRefusalMs: 2 * config.flushIntervalMs,
  });
  budgetRefused = (orgId) => alerts.budgetRefused(orgId);
  alerts.start(config.alertCheckIntervalS * 1000);

  const mcp = openMcpGateway({
    store,
    box,
    metrics,
    preferences: async (orgId) => settings.get(orgId),
    now: () => services.now(),
    log,
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutS: config.bodyTimeoutS,
    maxToolCallMs: config.upstreamTimeoutS * 1000,
  });

  const rt: Runtime = {
    config,
    log,
    store,
    services,
    state,
    usage,
    metrics,
    operations: createOperationRegistry(),
    runner,
    mcp,
    draining: false,
    async shutdown() {
      rt.draining = true;
      stopMaintenance();
      await alerts.stop();
      mcp.close();
      // Refused streams still being read in the background are accounted before the last flush.
      await calls.stop();
      await usage.stop();
      // A snapshot that cannot be written (a full disk) costs only refilled buckets: the store is still closed cleanly.
      try {
        writeSnapshot(snapshotPath, { version: 1, writtenAt: Date.now(), buckets: limiter.snapshot() });
      } catch (err) {
        log.warn("hot-state snapshot not written", { error: String(err) });
      }
      await state.close();
      await store.close();
      runner.record();
      await tracing.shutdown().catch((err) => log.warn("traces not exported at shutdown", { error: String(err) }));
      log.flush();
    },
  };
  return rt;
}
