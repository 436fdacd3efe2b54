/** The rate-limit status of every provider configuration of an organization. */
import type { ProviderRateUsage } from "../../state/provider-rate-usage.ts";
import type { Store } from "../../store/store.ts";
import type { ProviderLimitState } from "../alerts/alert-checker.ts";
import { providerStatus, type RateStatusReport, rateStatusReport, reportedAsOf } from "./rate-limit-status.ts";

export async function orgRateStatus(store: Store, usage: ProviderRateUsage, orgId: string, now: number): Promise<RateStatusReport> {
  const configs = await store.listProviderConfigs(orgId);
  return rateStatusReport(
    configs.map((c) => providerStatus(c.name, c.id, c.limits, usage.snapshot(c.id, now), now)),
    now,
  );
}

/** The same, as the alert check reads it: a provider-reported state carries what it is known as of. */
export async function orgLimitStates(store: Store, usage: ProviderRateUsage, orgId: string, now: number): Promise<ProviderLimitState[]> {
  return (await store.listProviderConfigs(orgId)).map((c) => {
    const snapshot = usage.snapshot(c.id, now);
    const p = providerStatus(c.name, c.id, c.limits, snapshot, now);
    return {
      provider: p.provider,
      configId: p.configId,
      status: p.status,
      message: p.message,
      details: { limits: p.limits, usage: p.usage, percentages: p.percentages, resetTime: p.resetTime },
      observedAt: p.source === "provider-headers" ? reportedAsOf(snapshot, now) : null,
    };
  });
}
