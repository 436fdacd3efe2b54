/**
 * Which configured providers a caller may use, in the order their keys are preferred.
 * A user: their own, then the organization's. A service account (the specification: it
 * "can use the configured keys of any member"): the organization's, then those of the
 * person who created it (who chose to hand its key out), then other members' providers
 * that call the vendor's own address, oldest first. A member's provider at an address
 * of their choosing (a custom base URL) serves only them and the service accounts they
 * created: it would otherwise receive everyone's prompts (docs/security.md).
 */
import type { Identity } from "../domain/identity.ts";
import type { LiveProvider } from "../state/provider-directory.ts";

/** The providers this caller may use, in the order their keys are preferred. */
export function usableProviders(all: LiveProvider[], identity: Identity): LiveProvider[] {
  const org = all.filter((p) => p.record.ownerUserId === null);
  const me = identity.kind === "user" ? identity.user.id : identity.serviceAccount.createdBy;
  const personal = all.filter((p) => p.record.ownerUserId !== null && p.record.ownerUserId === me);
  if (identity.kind === "user") return [...personal, ...org];
  const members = all
    .filter((p) => p.record.ownerUserId !== null && p.record.ownerUserId !== me && p.record.baseUrl === null)
    .sort((a, b) => a.record.createdAt - b.record.createdAt);
  return [...org, ...personal, ...members];
}
