/**
 * Stage 4 for sandbox (`gw_test_`) keys: the model is resolved exactly as for a live
 * call (same order, same 404 for an unknown model, same format and embeddings
 * checks afterwards), but no provider key is needed, because nothing is sent. The
 * live resolver is reused rather than copied, so the two can never drift apart:
 * where it stops only because no key is configured, the sandbox stands in for the
 * provider kind it named.
 */
import { ApiError } from "../lib/errors.ts";
import { isProviderKind } from "../providers/catalog/provider-kinds.ts";
import { type Target, targetFor } from "../providers/target.ts";
import type { Identity } from "../domain/identity.ts";
import { type ResolveDeps, resolveTarget } from "./resolve-provider.ts";

/** Where a sandbox call would have gone; its credentials are never used. */
export async function sandboxTarget(deps: ResolveDeps, identity: Identity, model: string, headers: Headers): Promise<Target> {
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
