/**
 * The periodic alert check: for each organization, budget thresholds, then each
 * provider's rate-limit state. A provider's state is announced when it changes into
 * `warning` or `critical` (not on every check). The last state of a provider-reported
 * one is held in the hot state (`LimitStates`: shared by the nodes on one Redis, so the
 * change is announced once between them, by the node whose newer view made it); that of
 * a configured limit, counted by each process, in this process's memory. Either way a
 * restart (or Redis's data lost) may announce a standing state once more. A call refused
 * under an organization's budget brings its budget check forward (`budgetRefused`).
 * Each organization is checked every `alertCheckIntervalS` of its preferences (an
 * admin's, at least 30 s), else every GW_ALERT_CHECK_INTERVAL_S (the operator's default):
 * the timer ticks often enough for the shortest, and each tick checks the organizations
 * whose period has passed, reading the preference then, so a change applies from the
 * next tick without a restart.
 */
import type { Logger } from "../../lib/log.ts";
import { type LimitState, type LimitStates, MemoryLimitStates } from "../../state/limit-states.ts";
import type { Store } from "../../store/store.ts";
import { checkBudget } from "./budget-alerts.ts";
import type { Notifier } from "./notifier.ts";

export type { LimitState };

export interface ProviderLimitState {
  provider: string;
  /** The provider configuration; the provider's name stands for it when absent. */
  configId?: string;
  status: LimitState;
  message: string;
  details: Record<string, unknown>;
  /**
   * For a state the provider reported: what it is known as of (ms). Set, the state is
   * compared in `limitStates` (one state for every node); absent or null (a configured
   * limit, counted per process), in this process's memory.
   */
  observedAt?: number | null;
}

export interface AlertCheckerDeps {
  store: Store;
  notifier: Notifier;
  log: Logger;
  now: () => number;
  /** The organization's providers' rate-limit states, when a source is wired. */
  rateLimits?: (orgId: string) => Promise<ProviderLimitState[]>;
  /** Where provider-reported states are compared (the hot state's); this process's memory by default. */
  limitStates?: LimitStates;
  /**
   * How long after a spend cap refused a call of an organization with a budget its budget
   * is checked (`budgetRefused`): long enough for every node's unflushed spend, which the
   * cap counted, to reach the store (two flush intervals).
   */
  afterRefusalMs?: number;
}

export const RATE_LIMIT_KIND = "rate_limit.status";

/** The shortest period an organization's admin may set. */
export const MIN_ALERT_CHECK_INTERVAL_S = 30;

/** After a refusal has brought an organization's budget check forward, further refusals within this do not. */
export const REFUSAL_CHECK_GAP_MS = 10_000;

export class AlertChecker {
  private readonly lastState = new Map<string, LimitState>();
  private readonly limitStates: LimitStates;
  /** When a refusal last brought each organization's budget check forward (this process). */
  private readonly refusedAt = new Map<string, number>();
  /** Budget checks brought forward and not run yet, or running. */
  private readonly soon = new Map<ReturnType<typeof setTimeout>, Promise<void> | null>();
  /** When each organization was last checked (this process). */
  private readonly lastChecked = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private defaultMs = MIN_ALERT_CHECK_INTERVAL_S * 1000;
  private tickMs = this.defaultMs;

  constructor(private readonly deps: AlertCheckerDeps) {
    this.limitStates = deps.limitStates ?? new MemoryLimitStates();
  }

  /** `defaultMs`: the operator's period, for organizations that set none. */
  start(defaultMs: number): void {
    this.defaultMs = defaultMs;
    this.tickMs = Math.min(defaultMs, MIN_ALERT_CHECK_INTERVAL_S * 1000);
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Checks brought forward that have not started are dropped; those running are waited for.
    for (const [t, run] of this.soon) {
      if (run !== null) continue;
      clearTimeout(t);
      this.soon.delete(t);
    }
    await this.idle();
  }

  /** Resolves when the check under way and the budget checks brought forward have run (shutdown, tests). */
  async idle(): Promise<void> {
    await this.running;
    while (this.soon.size > 0) {
      await Promise.all([...this.soon.values()]);
      await Bun.sleep(1);
    }
  }

  /**
   * A spend cap refused a call of an organization with a monthly budget. The cap counts
   * spend not flushed yet and the analytics read the store, so the budget is checked once
   * that spend is flushed (`afterRefusalMs`), rather than at the organization's next
   * period: a threshold the refusal came with (100% once spend reached the budget) is
   * announced then. At most once in `REFUSAL_CHECK_GAP_MS` per organization.
   */
  budgetRefused(orgId: string): void {
    const now = this.deps.now();
    const last = this.refusedAt.get(orgId);
    if (last !== undefined && now >= last && now - last < REFUSAL_CHECK_GAP_MS) return;
    this.refusedAt.set(orgId, now);
    const timer = setTimeout(() => {
      const run = checkBudget(this.deps.store, this.deps.notifier, orgId, this.deps.now())
        .then(() => {})
        .catch((err) => this.deps.log.error("budget check after a refusal failed", { orgId, error: String(err) }))
        .finally(() => this.soon.delete(timer));
      this.soon.set(timer, run);
    }, this.deps.afterRefusalMs ?? 500);
    timer.unref();
    this.soon.set(timer, null);
  }

  private tick(): Promise<void> {
    // A slow check is not overlapped by the next one.
    this.running ??= this.checkDue()
      .catch((err) => this.deps.log.error("alert check failed", { error: String(err) }))
      .finally(() => (this.running = null));
    return this.running;
  }

  async checkAll(): Promise<void> {
    for (const org of await this.deps.store.listOrganizations()) await this.checkOrg(org.id);
  }

  /** One tick: the organizations whose period has passed since their last check (all of them, the first time). */
  async checkDue(): Promise<void> {
    const now = this.deps.now();
    for (const org of await this.deps.store.listOrganizations()) {
      const last = this.lastChecked.get(org.id);
      if (last !== undefined) {
        const own = (await this.deps.store.getOrgPreferences(org.id)).alertCheckIntervalS;
        const periodMs = own === null ? this.defaultMs : own * 1000;
        // A little slack (a second at most): a timer that fires a few milliseconds early still counts as the period.
        // A clock set back (now before the last check) checks now rather than wait for it to catch up.
        if (now >= last && now - last < periodMs - Math.min(1000, this.tickMs / 2)) continue;
      }
      this.lastChecked.set(org.id, now);
      await this.checkOrg(org.id);
    }
  }

  async checkOrg(orgId: string): Promise<void> {
    const now = this.deps.now();
    await checkBudget(this.deps.store, this.deps.notifier, orgId, now);
    if (!this.deps.rateLimits) return;
    for (const s of await this.deps.rateLimits(orgId)) {
      const before = await this.previous(orgId, s);
      // Null: another node holds a newer view of this provider, whose change it announced (or will).
      if (before === null || s.status === before || s.status === "ok") continue;
      await this.deps.notifier.notify({
        orgId,
        kind: RATE_LIMIT_KIND,
        severity: s.status,
        title: `${s.provider}: rate-limit status ${s.status}`,
        body: { provider: s.provider, status: s.status, previous: before, message: s.message, ...s.details },
      });
    }
  }

  /** The state `s` replaces: the one every node compares (provider-reported), or this process's (a configured limit). */
  private async previous(orgId: string, s: ProviderLimitState): Promise<LimitState | null> {
    const configId = s.configId ?? s.provider;
    if (s.observedAt !== undefined && s.observedAt !== null) return this.limitStates.swap(orgId, configId, s.status, s.observedAt);
    const id = `${orgId}\u0000${configId}`;
    const before = this.lastState.get(id) ?? "ok";
    this.lastState.set(id, s.status);
    return before;
  }
}
