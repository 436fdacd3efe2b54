-- The operator's approvals of sign-in e-mail domains. An admin's `signInEmailDomains`
-- proves no ownership: with several organizations on one gateway, one could list
-- another's domain and take in its people's first sign-ins. There a listed domain
-- joins only the organization the operator approved it for; the key makes that one.
CREATE TABLE sign_in_domain_approvals (
  domain TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  approved_at BIGINT NOT NULL
);
