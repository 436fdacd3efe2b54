/**
 * Who is calling: a service account (API key) or a user (dashboard session). Every
 * service and operation takes this, never raw credentials.
 */
import type { ApiKeyRecord, Organization, Role, ServiceAccount, User } from "./types.ts";

/**
 * Whose provider configurations a call may use: the organization's, or the caller's own
 * (the gateway request's `context.scope`, docs/decisions.md).
 */
export type ProviderSide = "user" | "organization";

export type Identity = (
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
    }
) & {
  /** Set for one gateway request that named a side (`context.scope`); absent: both sides, in the resolution order. */
  providerSide?: ProviderSide;
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
