/**
 * Which configured providers a caller may use, in the order their keys are preferred:
 * for a service account the organization's, then its creator's, then any member's,
 * oldest first; for a user their own, then the organization's.
 */
import { type Identity, responsibleUserId } from "../domain/identity.ts";
import type { LiveProvider } from "../state/provider-directory.ts";

/** The providers this caller may use, in the order their keys are preferred. */
export function usableProviders(all: LiveProvider[], identity: Identity): LiveProvider[] {
  const me = responsibleUserId(identity);
  const org = all.filter((p) => p.record.ownerUserId === null);
  const mine = all.filter((p) => p.record.ownerUserId !== null && p.record.ownerUserId === me);
  if (identity.kind === "user") return [...mine, ...org];
  const others = all.filter((p) => p.record.ownerUserId !== null && p.record.ownerUserId !== me);
  return [...org, ...mine, ...others];
}
