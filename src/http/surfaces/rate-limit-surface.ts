/** `GET /api/user/rate-limit-status`: the organization's providers against their rate limits. */
import { orgRateStatus } from "../../services/rate-limits/org-rate-status.ts";
import type { ProviderRateUsage } from "../../state/provider-rate-usage.ts";
import type { Store } from "../../store/store.ts";
import { json } from "../json-response.ts";
import type { AdmittedScope } from "../request-scope.ts";

export interface RateLimitSurfaceDeps {
  store: Store;
  rateUsage: ProviderRateUsage;
  now: () => number;
}

export function rateLimitStatusHandler(deps: RateLimitSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    return json(await orgRateStatus(deps.store, deps.rateUsage, identity.organization.id, deps.now()));
  };
}
