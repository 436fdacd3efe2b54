/**
 * Who owns and may change a provider configuration (docs/security.md, "Providers:
 * ownership"): the organization (admins) or one person (that person and admins); a
 * service account never owns one. Refusals are 403 and audited (`access.denied`).
 */
import type { Actor, Identity } from "../domain/identity.ts";
import type { ProviderConfigRecord } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";

/** Refuses by an ownership rule (403), audited as the registry's refusals are. */
async function refuse(deps: ServiceDeps, identity: Identity, actor: Actor, target: string, error: ApiError): Promise<never> {
  await recordAudit(deps.store, identity.organization.id, actor, "access.denied", target, { reason: "ownership" }, deps.now());
  throw error;
}

/** The owner a new or re-scoped provider gets: null (the organization) or the person calling. */
export async function ownerFor(
  deps: ServiceDeps,
  identity: Identity,
  actor: Actor,
  scope: "user" | "organization",
): Promise<string | null> {
  if (scope === "organization") {
    if (identity.role !== "admin")
      return refuse(
        deps,
        identity,
        actor,
        "provider",
        new ApiError(403, "forbidden", "only organization admins may add or share organization-wide providers"),
      );
    return null;
  }
  if (identity.kind !== "user") {
    return refuse(
      deps,
      identity,
      actor,
      "provider",
      new ApiError(
        403,
        "forbidden",
        "a service account cannot own a provider: personal providers belong to a signed-in person; an admin key adds organization providers (scope organization)",
        { param: "params.scope" },
      ),
    );
  }
  return identity.user.id;
}

/** A service account's providers are the organization's unless asked otherwise; a person's are their own. */
export const defaultScope = (identity: Identity): "user" | "organization" => (identity.kind === "user" ? "user" : "organization");

/** The person an identity is, for ownership: a signed-in user; never a service account. */
export const personOf = (identity: Identity): string | null => (identity.kind === "user" ? identity.user.id : null);

/** A provider the caller may change: an admin any of the organization's; a person their own; a member key none. */
export async function editable(deps: ServiceDeps, identity: Identity, actor: Actor, id: string): Promise<ProviderConfigRecord> {
  const rec = await deps.store.getProviderConfig(id);
  const visible =
    rec &&
    rec.orgId === identity.organization.id &&
    (identity.role === "admin" || rec.ownerUserId === null || rec.ownerUserId === personOf(identity));
  if (!rec || !visible)
    throw new ApiError(404, "not_found", `no provider ${id.slice(0, 100)} in this organization`, { param: "params.id" });
  const mine = rec.ownerUserId !== null && rec.ownerUserId === personOf(identity);
  if (identity.role !== "admin" && !mine)
    return refuse(
      deps,
      identity,
      actor,
      id,
      new ApiError(403, "forbidden", "only its owner or an organization admin may change this provider"),
    );
  return rec;
}
