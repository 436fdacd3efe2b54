/**
 * Stage 4 for sandbox (`gw_test_`) keys: the model is resolved exactly as for a live
 * call (same order, same 404 for an unknown model, same format and embeddings
 * checks afterwards), but no provider key is needed, because nothing is sent. The
 * live resolver is reused rather than copied, so the two can never drift apart:
 * where it stops only because no key is configured, the sandbox stands in for the
 * provider kind it named. The target it gives is simulated: the simulator answers it
 * (call-adapter.ts), without the configuration, so no provider's limits, health or
 * credentials are touched.
 */
import { ApiError } from "../lib/errors.ts";
import { isProviderKind } from "../providers/catalog/provider-kinds.ts";
import { type Target, targetFor } from "../providers/target.ts";
import type { Identity } from "../domain/identity.ts";
import { type ResolveDeps, resolveTarget } from "./resolve-provider.ts";
import { isSandbox } from "./sandbox.ts";

/** How a caller's model names become targets: live, or for a sandbox key, simulated. Where a sandbox call parts from a live one. */
export function resolverFor(identity: Identity): typeof resolveTarget {
  return isSandbox(identity) ? sandboxTarget : resolveTarget;
}

/** Where a sandbox call would have gone, answered by the simulator instead. */
export async function sandboxTarget(deps: ResolveDeps, identity: Identity, model: string, headers: Headers): Promise<Target> {
  return simulated(await liveTarget(deps, identity, model, headers), identity);
}

/**
 * No provider key, ever: the credential the simulator sees names the organization
 * instead, which scopes what it stores (a `previous_response_id` is found only by the
 * organization it was given to, as a provider scopes it to the key's account).
 */
function simulated(t: Target, identity: Identity): Target {
  return { ...t, simulated: true, configId: null, credentials: { type: "api-key", apiKey: `sandbox:${identity.organization.id}` } };
}

async function liveTarget(deps: ResolveDeps, identity: Identity, model: string, headers: Headers): Promise<Target> {
  try {
    return await resolveTarget(deps, identity, model, headers);
  } catch (err) {
    const kind = err instanceof ApiError && err.code === "provider_not_configured" ? err.details?.provider : undefined;
    const id = (err as ApiError).details?.model;
    if (typeof kind !== "string" || !isProviderKind(kind) || typeof id !== "string") throw err;
    const info = deps.catalog.kind(kind);
    return targetFor({
      info,
      baseUrl: info.defaultBaseUrl ?? "",
      credentials: { type: "api-key", apiKey: "" },
      model: id,
      catalogModel: deps.catalog.model(id),
    });
  }
}
