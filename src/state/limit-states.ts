/**
 * The last rate-limit state of each provider configuration, as the alert check announces
 * it: a change into `warning` or `critical` is announced once. A provider-reported state
 * is the same provider account seen by every node, so with several nodes it is kept in
 * shared state (redis/redis-limit-states.ts), each observation with the time of what it
 * knows (when the provider's headers said it, or when their window refilled): the
 * newest observation sets the state, one older than the state held changes nothing
 * (a node whose last answer predates another's), and only the node whose observation
 * changed it announces the change. In one process this is the map below.
 */

export type LimitState = "ok" | "warning" | "critical";

export interface LimitStates {
  /**
   * Takes `status`, known as of `at`, as the configuration's state unless an observation
   * newer than `at` is held: answers the state it replaced (`ok` when none was held),
   * or null when a newer one stands and nothing changed.
   */
  swap(orgId: string, configId: string, status: LimitState, at: number): Promise<LimitState | null>;
}

export class MemoryLimitStates implements LimitStates {
  private readonly held = new Map<string, { status: LimitState; at: number }>();

  async swap(orgId: string, configId: string, status: LimitState, at: number): Promise<LimitState | null> {
    const id = `${orgId}\u0000${configId}`;
    const before = this.held.get(id);
    if (before && before.at > at) return null;
    this.held.set(id, { status, at });
    return before?.status ?? "ok";
  }
}
