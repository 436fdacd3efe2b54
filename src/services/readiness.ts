/** Whether this node can serve: today, whether its store answers. /readyz reports it. */
import type { ServiceDeps } from "./deps.ts";

/**
 * The ping is a statement like any other: on Postgres it is bounded by GW_STORE_TIMEOUT_S
 * (store/postgres/statement-bound.ts), so a database gone silent, which holds the usage
 * flushes too, reads as not ready within the bound instead of leaving the check hanging.
 */
export async function storeReachable(deps: Pick<ServiceDeps, "store">): Promise<boolean> {
  try {
    await deps.store.ping();
    return true;
  } catch {
    return false;
  }
}
