/**
 * The periodic alert check: for each organization, budget thresholds, then each
 * provider's rate-limit state. A provider's state is announced when it changes into
 * `warning` or `critical` (not on every check); the last state seen is held in memory,
 * so a restart may announce a standing state once more. Each organization is checked
 * every `alertCheckIntervalS` of its preferences (an admin's, at least 30 s), else every
 * GW_ALERT_CHECK_INTERVAL_S (the operator's default): the timer ticks often enough for
 * the shortest, and each tick checks the organizations whose period has passed, reading
 * the preference then, so a change applies from the next tick without a restart.
 */
import type { Logger } from "../../lib/log.ts";
import type { Store } from "../../store/store.ts";
import { checkBudget } from "./budget-alerts.ts";
import type { Notifier } from "./notifier.ts";

export type LimitState = "ok" | "warning" | "critical";

export interface ProviderLimitState {
  provider: string;
  status: LimitState;
  message: string;
  details: Record<string, unknown>;
}

export interface AlertCheckerDeps {
  store: Store;
  notifier: Notifier;
  log: Logger;
  now: () => number;
  /** The organization's providers' rate-limit states, when a source is wired. */
  rateLimits?: (orgId: string) => Promise<ProviderLimitState[]>;
}

export const RATE_LIMIT_KIND = "rate_limit.status";

/** The shortest period an organization's admin may set. */
export const MIN_ALERT_CHECK_INTERVAL_S = 30;

export class AlertChecker {
  private readonly lastState = new Map<string, LimitState>();
  /** When each organization was last checked (this process). */
  private readonly lastChecked = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private defaultMs = MIN_ALERT_CHECK_INTERVAL_S * 1000;
  private tickMs = this.defaultMs;

  constructor(private readonly deps: AlertCheckerDeps) {}

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
    await this.running;
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
      const id = `${orgId}\u0000${s.provider}`;
      const before = this.lastState.get(id) ?? "ok";
      this.lastState.set(id, s.status);
      if (s.status === before || s.status === "ok") continue;
      await this.deps.notifier.notify({
        orgId,
        kind: RATE_LIMIT_KIND,
        severity: s.status,
        title: `${s.provider}: rate-limit status ${s.status}`,
        body: { provider: s.provider, status: s.status, previous: before, message: s.message, ...s.details },
      });
    }
  }
}
