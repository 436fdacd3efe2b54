/**
 * Everything a node shares with the others through Redis (GW_REDIS_URL), built in one
 * place for the runtime: the connection, the node registry, the rate limiter, the
 * spend ledger, the change bus and the periodic jobs' claims, with their metrics and
 * their readiness.
 */
import { CredentialWatch } from "./credential-watch.ts";
import { refusedCredentials } from "./redis-credentials.ts";
import type { Logger } from "../../lib/log.ts";
import { Gauge, Histogram, type MetricsRegistry } from "../../lib/metrics.ts";
import type { SpendLedger, SpendStore } from "../spend-ledger.ts";
import { JobClaims } from "./job-claims.ts";
import { NodeRegistry } from "./node-registry.ts";
import { RedisChangeBus } from "./redis-change-bus.ts";
import { RedisConnection } from "./redis-connection.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";
import { RedisSpendLedger } from "./redis-spend-ledger.ts";

/** Round trips are sub-millisecond on a LAN; the top buckets catch a slow Redis. */
export const ROUND_TRIP_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * The deadline for what a node asks Redis while it starts. A call's deadline keeps a
 * slow Redis from holding callers; nobody waits at start, and several workers starting
 * together on a few cores can be slower than a call's 250 ms without Redis being away.
 */
const STARTUP_DEADLINE_MS = 5_000;

export interface SharedStateOptions {
  url: string;
  timeoutMs: number;
  rateLimit: { limit: number; windowS: number };
  spendFailOpen: boolean;
  spendStore: SpendStore;
  /** This node's in-memory ledger (the fail-open fallback). */
  localLedger: Pick<SpendLedger, "reserve">;
  metrics: MetricsRegistry;
  log: Logger;
}

export class SharedState {
  readonly redis: RedisConnection;
  readonly nodes: NodeRegistry;
  readonly limiter: RedisRateLimiter;
  readonly ledger: RedisSpendLedger;
  readonly bus: RedisChangeBus;
  readonly jobs: JobClaims;
  /** Names a refusal of the URL's credentials while the node runs (the start's is named by `open`). */
  readonly credentials: CredentialWatch;

  private constructor(opts: SharedStateOptions) {
    const roundTrips = opts.metrics.register(
      new Histogram(
        "gateway_redis_round_trip_seconds",
        "Redis command round trips (rate limits, spend reservations, settlements).",
        [],
        ROUND_TRIP_BUCKETS,
      ),
    );
    this.redis = new RedisConnection(opts.url, { timeoutMs: opts.timeoutMs, observe: (s) => roundTrips.observe([], s) });
    this.nodes = new NodeRegistry(this.redis, `${process.pid}-${crypto.randomUUID()}`);
    let fallbackCount = 0;
    opts.metrics.register(
      new Gauge(
        "gateway_redis_fallbacks_total",
        "Rate-limit decisions made locally because Redis did not answer.",
        () => fallbackCount,
        "counter",
      ),
    );
    this.limiter = new RedisRateLimiter(this.redis, {
      ...opts.rateLimit,
      nodes: () => this.nodes.count(),
      onFallback: () => fallbackCount++,
    });
    this.ledger = new RedisSpendLedger(this.redis, opts.spendStore, {
      failOpen: opts.spendFailOpen,
      local: opts.localLedger,
      onUnavailable: (err) =>
        opts.log.warn(opts.spendFailOpen ? "spend cap checked on this node only" : "capped call refused (503)", { reason: err.message }),
    });
    this.bus = new RedisChangeBus(this.redis);
    this.jobs = new JobClaims(this.redis, this.nodes.nodeId);
    this.credentials = new CredentialWatch(this.redis, opts.url, opts.log, { timeoutMs: Math.max(opts.timeoutMs, 1000) });
    opts.metrics.register(
      new Gauge("gateway_redis_up", "1 while this node's Redis connection is up.", () => (this.redis.connected ? 1 : 0)),
    );
    opts.metrics.register(
      new Gauge("gateway_redis_subscribed", "1 while this node receives other nodes' changes.", () => (this.bus.isSubscribed ? 1 : 0)),
    );
    opts.metrics.register(new Gauge("gateway_nodes", "Gateway nodes seen on this Redis in the last 15 seconds.", () => this.nodes.count()));
    opts.metrics.register(
      new Gauge(
        "gateway_spend_pending_settlements",
        "Spend settlements waiting for Redis to answer again.",
        () => this.ledger.stats().pendingSettlements,
      ),
    );
    opts.metrics.register(
      new Gauge(
        "gateway_changes_unsent",
        "Cache changes this node announced that Redis has not taken yet (sent again every second).",
        () => this.bus.unsentChanges,
      ),
    );
    opts.metrics.register(
      new Gauge(
        "gateway_spend_settlements_forgotten_total",
        "Uncapped calls' costs not sent because Redis lost its data while they waited (the store counts them).",
        () => this.ledger.stats().forgottenSettlements,
        "counter",
      ),
    );
    opts.metrics.register(
      new Gauge(
        "gateway_spend_reservations_expired_total",
        "Spend reservations whose node stopped renewing them (killed, or cut off from Redis), given back by this node's reservations.",
        () => this.ledger.stats().expiredReservations,
        "counter",
      ),
    );
  }

  /** Connects and subscribes (subscribe listeners to `bus` first); a Redis unreachable at start is an error (the operator asked for it). */
  static async open(opts: SharedStateOptions): Promise<SharedState> {
    const shared = new SharedState(opts);
    try {
      await shared.redis.client.connect();
      await shared.redis.loadScripts(Math.max(opts.timeoutMs, STARTUP_DEADLINE_MS));
      await shared.bus.start();
      await shared.nodes.beat();
    } catch (err) {
      await shared.close();
      // The client says "Connection closed" for a refused password too: ask Redis which it was.
      const refused = await refusedCredentials(opts.url, Math.max(opts.timeoutMs, 1000));
      throw new Error(refused ? `GW_REDIS_URL: ${refused}` : `GW_REDIS_URL: cannot reach Redis (${(err as Error).message ?? err})`);
    }
    return shared;
  }

  /**
   * For /readyz: Redis away is reported, not required (a node without it still serves, see
   * docs/scale-out.md). Credentials it refuses are this node's configuration, not an
   * outage every node shares: "refused", with Redis's reason, makes the node not ready.
   */
  health(): { redis: "ok" | "unavailable" | "refused"; changes: "subscribed" | "resyncing"; reason?: string } {
    const changes = this.bus.isSubscribed ? "subscribed" : "resyncing";
    if (this.redis.connected) return { redis: "ok", changes };
    const reason = this.credentials.refusal;
    return reason === null ? { redis: "unavailable", changes } : { redis: "refused", changes, reason };
  }

  async close(): Promise<void> {
    this.credentials.close();
    await this.nodes.leave();
    await this.ledger.close();
    await this.bus.close();
    this.redis.close();
  }
}
