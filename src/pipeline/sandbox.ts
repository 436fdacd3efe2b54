/**
 * Sandbox mode: a `gw_test_` key never reaches a provider. Its calls take the request
 * path like any other and are answered by the simulator as an adapter
 * (simulator/sandbox-adapter.ts, chosen in call-adapter.ts), after the live checks
 * (model resolution without a key, see sandbox-target.ts, authorization, scanning,
 * the endpoint's format), so a sandbox call fails exactly where a live one would. It
 * is accounted like any other call, free: no spend is reserved and the usage row
 * names the sandbox and costs nothing, so integrations can be built and tested
 * without spending or leaking anything.
 */
import type { Identity } from "../domain/identity.ts";

export function isSandbox(identity: Identity): boolean {
  return identity.kind === "serviceAccount" && identity.key.keyType === "test";
}
