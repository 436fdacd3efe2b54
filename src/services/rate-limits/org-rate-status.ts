/** The rate-limit status of every provider configuration of an organization. */
import type { ProviderRateUsage } from "../../state/provider-rate-usage.ts";
import type { Store } from "../../store/store.ts";
import { providerStatus, type RateStatusReport, rateStatusReport } from "./rate-limit-status.ts";

export async function orgRateStatus(store: Store, usage: ProviderRateUsage, orgId: string, now: number): Promise<RateStatusReport> {
  const configs = await store.listProviderConfigs(orgId);
  return rateStatusReport(
    configs.map((c) => providerStatus(c.name, c.id, c.limits, usage.snapshot(c.id, now), now)),
    now,
  );
}
