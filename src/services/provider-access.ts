/**
 * Which configured providers a caller may use, in the order their keys are preferred.
 * A user: their own, then the organization's. A service account (the specification: it
 * "can use the configured keys of any member"): the organization's, then those of the
 * person who created it (who chose to hand its key out), then other members' providers
 * that call the vendor's own address, oldest first. A member's provider at an address
 * of their choosing (a custom base URL) serves only them and the service accounts they
 * created: it would otherwise receive everyone's prompts (docs/security.md).
 * A request that names a side (`context.scope`, docs/decisions.md) gets only that side:
 * `organization` the organization's providers, `user` the person's own.
 */
import type { Identity, ProviderSide } from "../domain/identity.ts";
import type { LiveProvider } from "../state/provider-directory.ts";

/**
 * The answers already given, per provider list and per caller. The list is the
 * directory's cached array, replaced (never changed in place) when it loads again, so
 * an answer lives exactly as long as the list it was drawn from; every model call
 * asks, and with the same list and caller the answer is the same.
 */
const answers = new WeakMap<readonly LiveProvider[], Map<string, LiveProvider[]>>();

/** The providers this caller may use, in the order their keys are preferred. Shared between calls: read it, never change it. */
export function usableProviders(all: LiveProvider[], identity: Identity): LiveProvider[] {
  const me = identity.kind === "user" ? identity.user.id : identity.serviceAccount.createdBy;
  const caller = `${identity.kind}\u0000${me ?? ""}\u0000${identity.providerSide ?? ""}`;
  let byCaller = answers.get(all);
  if (byCaller === undefined) {
    byCaller = new Map();
    answers.set(all, byCaller);
  }
  let answer = byCaller.get(caller);
  if (answer === undefined) {
    answer = usableFor(all, identity.kind, me, identity.providerSide);
    byCaller.set(caller, answer);
  }
  return answer;
}

function usableFor(all: LiveProvider[], kind: Identity["kind"], me: string | null, side: ProviderSide | undefined): LiveProvider[] {
  const org = all.filter((p) => p.record.ownerUserId === null);
  if (side === "organization") return org;
  const personal = all.filter((p) => p.record.ownerUserId !== null && p.record.ownerUserId === me);
  // A service account has no side of its own: its creator's providers are lent to it, not its own (the gateway refuses the request first).
  if (side === "user") return kind === "user" ? personal : [];
  if (kind === "user") return [...personal, ...org];
  const members = all
    .filter((p) => p.record.ownerUserId !== null && p.record.ownerUserId !== me && p.record.baseUrl === null)
    .sort((a, b) => a.record.createdAt - b.record.createdAt);
  return [...org, ...personal, ...members];
}
