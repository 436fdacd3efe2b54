/** Who answers a call at a target: the adapter of its format, or for a sandbox key's call the simulator speaking that adapter's wire family. */
import type { ProviderAdapter } from "../providers/adapter.ts";
import { adapterFor } from "../providers/registry.ts";
import type { Target } from "../providers/target.ts";
import { sandboxAdapter } from "../simulator/sandbox-adapter.ts";

export function callAdapter(target: Target): ProviderAdapter {
  const live = adapterFor(target.format);
  return target.simulated ? sandboxAdapter(live.wire) : live;
}
