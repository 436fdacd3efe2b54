/**
 * Who an identity provider's verified e-mail is here. A known member signs in; an
 * unknown address is refused unless exactly one organization lists its domain in the
 * `signInEmailDomains` preference (approved by the operator when the gateway has several,
 * sign-in-domains.ts) and the provider marked the address verified (an unverified
 * address could be anyone's), in which case it joins that organization as a member.
 * Every outcome that belongs to an organization is audited there.
 */
import type { Actor } from "../domain/identity.ts";
import type { User } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import { recordAudit } from "./audit.ts";
import type { ServiceDeps } from "./deps.ts";
import type { VerifiedEmail } from "./oidc-signin.ts";
import { addMember } from "./organizations.ts";
import { domainOf, organizationsForDomain } from "./sign-in-domains.ts";

/** The refusal page's words; 403, and no account is created. */
export class NotAMember extends ApiError {
  constructor(email: string, why: string) {
    super(
      403,
      "forbidden",
      `${email} is not a member of any organization on this gateway${why}. Ask an organization admin to add you (Members page or \`gateway user add\`).`,
    );
  }
}

export async function memberForSignIn(deps: ServiceDeps, verified: VerifiedEmail, actor: Omit<Actor, "ref">): Promise<User> {
  const known = await deps.store.getUserByEmail(verified.email);
  if (known) {
    // The provider says outright it did not verify the address: anyone could have typed it.
    if (verified.emailVerified === false)
      throw new NotAMember(verified.email, " under a verified address (the identity provider marked it unverified)");
    return known;
  }
  const domain = domainOf(verified.email);
  const { orgIds: allowing, awaitingApproval } = await organizationsForDomain(deps, domain);
  if (allowing.length === 0 && !awaitingApproval) throw new NotAMember(verified.email, "");
  if (verified.emailVerified !== true)
    throw new NotAMember(verified.email, " (the identity provider did not mark the address as verified, which joining by domain requires)");
  if (awaitingApproval)
    throw new NotAMember(verified.email, ` (joining by the domain ${domain} awaits the approval of the gateway's operator)`);
  if (allowing.length > 1) throw new NotAMember(verified.email, ` (several organizations accept ${domain}, so the gateway cannot choose)`);
  const orgId = allowing[0] as string;
  const user = await addMember(deps, { ...actor, ref: "oidc" }, orgId, { email: verified.email, role: "member" });
  await recordAudit(
    deps.store,
    orgId,
    { ...actor, ref: `user:${user.id}` },
    "member.join",
    user.id,
    { email: user.email, via: "email-domain", domain },
    deps.now(),
  );
  return user;
}
