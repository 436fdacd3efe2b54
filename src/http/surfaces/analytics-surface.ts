/**
 * `GET /api/byok/analytics/*`: the organization's cost analytics, for an API key or a
 * session. Reads only; every member of the organization may see its own organization's
 * figures (the same numbers the dashboard shows).
 */
import type { Store } from "../../store/store.ts";
import { type AnalyticsView, orgAnalytics } from "../../services/analytics/org-analytics.ts";
import { json } from "../json-response.ts";
import type { AdmittedScope } from "../request-scope.ts";

export interface AnalyticsSurfaceDeps {
  store: Store;
  now: () => number;
}

/**
 * A path segment as its percent-encoding means it; one that is not valid encoding
 * (`%ZZ`, a cut UTF-8 sequence) stays as sent, so the period check answers it with
 * its 400 instead of the decoder's exception becoming a 500.
 */
function pathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The route's last path segment is its `:period` on the views that take one. */
export function analyticsHandler(deps: AnalyticsSurfaceDeps, view: AnalyticsView) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    const url = new URL(scope.request.url);
    const period = pathSegment(url.pathname.slice(url.pathname.lastIndexOf("/") + 1));
    const answer = await orgAnalytics(
      deps.store,
      identity.organization.id,
      view,
      {
        period,
        timeframe: url.searchParams.get("timeframe"),
        provider: url.searchParams.get("provider"),
        application: url.searchParams.get("application"),
      },
      deps.now(),
    );
    return json(answer);
  };
}
