/** Whether this node can serve: today, whether its store answers. /readyz reports it. */
import type { ServiceDeps } from "./deps.ts";

export async function storeReachable(deps: Pick<ServiceDeps, "store">): Promise<boolean> {
  try {
    await deps.store.ping();
    return true;
  } catch {
    return false;
  }
}
