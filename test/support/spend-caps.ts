/** Spend caps for ledger tests: a key and an organization no other test (or other test process) shares, with no cap unless given. */
import type { Caps } from "../../src/state/spend-ledger.ts";

let n = 0;

export const freshCaps = (over: Partial<Caps> = {}): Caps => ({
  keyId: `key_${++n}_${process.pid}`,
  orgId: `org_${n}_${process.pid}`,
  keyLifetimeCents: null,
  keyMonthlyCents: null,
  orgMonthlyCents: null,
  ...over,
});
