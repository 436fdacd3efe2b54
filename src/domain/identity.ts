/**
 * Who is calling: a service account (API key) or a user (dashboard session). Every
 * service and operation takes this, never raw credentials.
 */
import type { ApiKeyRecord, Organization, Role, ServiceAccount, User } from "./types.ts";

export type Identity =
  | {
      kind: "serviceAccount";
      id: string;
      role: Role;
      organization: Organization;
      serviceAccount: ServiceAccount;
      key: ApiKeyRecord;
    }
  | {
      kind: "user";
      id: string;
      role: Role;
      organization: Organization;
      user: User;
      sessionIdHash: string;
    };

/** Who did something, as written in the audit log. */
export interface Actor {
  /** `user:<id>`, `sa:<id>` or `cli`. */
  ref: string;
  ip: string | null;
  userAgent: string | null;
}

export function actorOf(identity: Identity, ip: string | null, userAgent: string | null): Actor {
  return { ref: identity.kind === "user" ? `user:${identity.id}` : `sa:${identity.id}`, ip, userAgent };
}

export const CLI_ACTOR: Actor = { ref: "cli", ip: null, userAgent: "gateway-cli" };

/** The user behind an identity: the session's user, or the member who created the service account. */
export function responsibleUserId(identity: Identity): string | null {
  return identity.kind === "user" ? identity.user.id : identity.serviceAccount.createdBy;
}
