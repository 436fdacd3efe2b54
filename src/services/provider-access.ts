/**
 * Which configured providers a caller may use, in the order their keys are preferred:
 * for a service account the organization's, then those of the person who created it
 * (who chose to hand its key out); for a user their own, then the organization's. A
 * member's personal provider never serves anyone else's calls: its owner may point it
 * at any address, so it would receive their prompts. Sharing one means an admin
 * moving it to organization scope (docs/security.md).
 */
import type { Identity } from "../domain/identity.ts";
import type { LiveProvider } from "../state/provider-directory.ts";

/** The providers this caller may use, in the order their keys are preferred. */
export function usableProviders(all: LiveProvider[], identity: Identity): LiveProvider[] {
  const org = all.filter((p) => p.record.ownerUserId === null);
  const me = identity.kind === "user" ? identity.user.id : identity.serviceAccount.createdBy;
  const personal = all.filter((p) => p.record.ownerUserId !== null && p.record.ownerUserId === me);
  return identity.kind === "user" ? [...personal, ...org] : [...org, ...personal];
}
