/**
 * What this node has seen of each provider configuration and model: moving averages of
 * the time to first byte and to a whole answer, the recent error rate, and a circuit
 * per configuration. Consecutive failures open the circuit for a backoff period that
 * doubles with each opening (up to a ceiling); after it, one call is let through as a
 * probe: its success closes the circuit, its failure opens it again for longer.
 * In memory and per node on purpose: latency is what this node measures, and a
 * provider unreachable from one node may answer another. Model names are the
 * callers' (`name/any-model` passes through), so the figures kept are bounded: past
 * `maxModels` pairs of configuration and model, the least recently recorded is
 * forgotten (it has only its catalog prior again).
 */

export interface HealthOptions {
  /** Consecutive failures that open a configuration's circuit. */
  failureThreshold: number;
  /** First cooldown; each reopening doubles it up to `maxCooldownMs`. */
  baseCooldownMs: number;
  maxCooldownMs: number;
  /** Weight of a new sample in the moving averages (0-1). */
  alpha: number;
  /** Configuration-and-model pairs kept; the least recently recorded goes first. */
  maxModels: number;
  now: () => number;
}

export const DEFAULT_HEALTH: Omit<HealthOptions, "now"> = {
  failureThreshold: 3,
  baseCooldownMs: 10_000,
  maxCooldownMs: 300_000,
  alpha: 0.2,
  maxModels: 512,
};

/** Samples before measured latency replaces the catalog's prior. */
const MIN_SAMPLES = 3;

export interface ModelStats {
  samples: number;
  ttfbMs: number;
  totalMs: number;
  errorRate: number;
}

/** Figures with where they are kept, so the least recent can be found and removed. */
interface KeptStats extends ModelStats {
  readonly providerId: string;
  readonly model: string;
}

type CircuitState = "closed" | "open" | "probing";

interface Circuit {
  state: CircuitState;
  consecutiveFailures: number;
  openings: number;
  /** Epoch ms when an open circuit lets its probe through. */
  retryAtMs: number;
}

export interface CircuitView {
  providerId: string;
  state: CircuitState;
  consecutiveFailures: number;
  retryAt: string | null;
}

/** Milliseconds to a whole answer from a model's figures: the moving average once it has enough samples, else the prior. */
export function expectedLatency(s: ModelStats | undefined, priorMs: number): number {
  return s && s.samples >= MIN_SAMPLES ? s.totalMs : priorMs;
}

export class ProviderHealth {
  /**
   * By configuration, then model: a lookup reads two strings the caller already holds,
   * where one joined key would build and hash a new string per lookup (the router reads
   * every candidate model on each routed call).
   */
  private readonly models = new Map<string, Map<string, KeptStats>>();
  /** Every kept pair, least recently recorded first (a Set keeps insertion order; a record re-inserts). */
  private readonly recency = new Set<KeptStats>();
  private readonly circuits = new Map<string, Circuit>();
  private readonly opts: HealthOptions;

  constructor(opts: Partial<HealthOptions> = {}) {
    this.opts = { ...DEFAULT_HEALTH, now: Date.now, ...opts };
  }

  /** A call answered: its latency joins the averages and the circuit closes. */
  recordSuccess(providerId: string, model: string, ttfbMs: number, totalMs: number): void {
    const s = this.stats(providerId, model);
    const a = s.samples === 0 ? 1 : this.opts.alpha;
    s.ttfbMs += a * (ttfbMs - s.ttfbMs);
    s.totalMs += a * (totalMs - s.totalMs);
    s.errorRate += this.opts.alpha * (0 - s.errorRate);
    s.samples++;
    const c = this.circuit(providerId);
    c.state = "closed";
    c.consecutiveFailures = 0;
    c.openings = 0;
  }

  /**
   * A call failed in a way another provider might not (429, 5xx, timeout, connection).
   * A provider that said when to come back (`Retry-After`) is not called before then,
   * whatever the failure count.
   */
  recordFailure(providerId: string, model: string, retryAfterMs?: number): void {
    const s = this.stats(providerId, model);
    s.errorRate += this.opts.alpha * (1 - s.errorRate);
    const c = this.circuit(providerId);
    c.consecutiveFailures++;
    if (retryAfterMs !== undefined) {
      const until = this.opts.now() + Math.min(retryAfterMs, this.opts.maxCooldownMs);
      c.retryAtMs = c.state === "open" ? Math.max(c.retryAtMs, until) : until;
      c.state = "open";
      return;
    }
    if (c.state === "probing" || c.consecutiveFailures >= this.opts.failureThreshold) {
      const cooldown = Math.min(this.opts.maxCooldownMs, this.opts.baseCooldownMs * 2 ** c.openings);
      c.openings++;
      c.state = "open";
      c.retryAtMs = this.opts.now() + cooldown;
    }
  }

  /**
   * Whether a call may go to this configuration now. An open circuit past its period
   * turns to probing and admits exactly one call; the others keep waiting for its
   * outcome, for one base period at most.
   */
  admits(providerId: string): boolean {
    const c = this.circuits.get(providerId);
    if (!c || c.state === "closed") return true;
    const now = this.opts.now();
    if (now < c.retryAtMs) return false;
    // A probe that never reported (the caller left, or it was refused before it was sent) stops blocking after a base period.
    c.state = "probing";
    c.retryAtMs = now + this.opts.baseCooldownMs;
    return true;
  }

  /** Whether the configuration is cooling down, without taking its probe. */
  isCoolingDown(providerId: string): boolean {
    const c = this.circuits.get(providerId);
    if (!c || c.state === "closed") return false;
    return this.opts.now() < c.retryAtMs;
  }

  /** Milliseconds to a whole answer: this node's moving average once it has enough samples, else the prior. */
  expectedLatencyMs(providerId: string, model: string, priorMs: number): number {
    return expectedLatency(this.models.get(providerId)?.get(model), priorMs);
  }

  /** The recent share of failed calls (0-1), 0 before any call. */
  errorRate(providerId: string, model: string): number {
    return this.models.get(providerId)?.get(model)?.errorRate ?? 0;
  }

  /** One configuration's figures by model (undefined before any call), for reading many models at once. */
  modelsOf(providerId: string): ReadonlyMap<string, Readonly<ModelStats>> | undefined {
    return this.models.get(providerId);
  }

  /** The moving averages for `/metrics` and `ai.health`. */
  modelsView(): { providerId: string; model: string; samples: number; ttfbMs: number; totalMs: number; errorRate: number }[] {
    return [...this.models].flatMap(([providerId, byModel]) =>
      [...byModel].map(([model, s]) => ({
        providerId,
        model,
        samples: s.samples,
        ttfbMs: Math.round(s.ttfbMs),
        totalMs: Math.round(s.totalMs),
        errorRate: Math.round(s.errorRate * 1000) / 1000,
      })),
    );
  }

  circuitsView(): CircuitView[] {
    return [...this.circuits].map(([providerId, c]) => ({
      providerId,
      state: c.state === "open" && this.opts.now() >= c.retryAtMs ? "open" : c.state,
      consecutiveFailures: c.consecutiveFailures,
      retryAt: c.state === "open" ? new Date(c.retryAtMs).toISOString() : null,
    }));
  }

  /** Forgets a configuration (deleted or changed: its history says nothing of the new one). */
  forget(providerId: string): void {
    this.circuits.delete(providerId);
    for (const s of this.models.get(providerId)?.values() ?? []) this.recency.delete(s);
    this.models.delete(providerId);
  }

  /** The figures to record into, made the most recent; a new pair past the bound pushes out the least recent. */
  private stats(providerId: string, model: string): ModelStats {
    let byModel = this.models.get(providerId);
    if (!byModel) this.models.set(providerId, (byModel = new Map()));
    let s = byModel.get(model);
    if (s) this.recency.delete(s);
    else {
      if (this.recency.size >= this.opts.maxModels) this.evictLeastRecent();
      byModel.set(model, (s = { providerId, model, samples: 0, ttfbMs: 0, totalMs: 0, errorRate: 0 }));
    }
    this.recency.add(s);
    return s;
  }

  private evictLeastRecent(): void {
    const oldest = this.recency.values().next().value;
    if (!oldest) return;
    this.recency.delete(oldest);
    const byModel = this.models.get(oldest.providerId);
    byModel?.delete(oldest.model);
    if (byModel?.size === 0) this.models.delete(oldest.providerId);
  }

  private circuit(providerId: string): Circuit {
    let c = this.circuits.get(providerId);
    if (!c) this.circuits.set(providerId, (c = { state: "closed", consecutiveFailures: 0, openings: 0, retryAtMs: 0 }));
    return c;
  }
}
