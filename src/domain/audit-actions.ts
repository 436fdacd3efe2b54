/**
 * The audit log's vocabulary: every action an entry may name, with what it means. The
 * writer takes only these names (services/audit.ts), so a new kind of entry is added
 * here first, and docs/operations.md's table (test/docs/audit-actions.test.ts) follows.
 */
export const AUDIT_ACTIONS = {
  "organization.create": "the operator created the organization (`gateway` CLI); target: the organization",
  "member.add": "a member was added (the organization's first admin, or an invitation accepted); target: the user",
  "member.invite": "an admin invited an address (or renewed the invitation); target: the address",
  "member.invite-cancel": "an admin withdrew a pending invitation; target: the address",
  "member.join": "a person joined by an operator-approved sign-in domain; target: the user",
  "member.role-change": "an admin changed a member's role; target: the user",
  "member.remove": "an admin removed a member (their providers are disabled); target: the user",
  "service_account.create": "an admin created a service account; target: the service account",
  "service_account.delete": "an admin deleted a service account and its keys; target: the service account",
  "api_key.create": "a key was issued for a service account; target: the key",
  "api_key.update": "an admin changed a key's name or limits; target: the key",
  "api_key.rotate": "an admin rotated a key (the old one lives out its grace period); target: the old key",
  "api_key.revoke": "an admin revoked a key; target: the key",
  "provider.create": "a provider configuration was added; target: the configuration",
  "provider.update": "a provider configuration was changed or its key rotated; target: the configuration",
  "provider.delete": "a provider configuration and its sealed key were removed; target: the configuration",
  "preferences.update": "an admin changed the organization's shared preferences; target: the organization",
  "webhook-secret.create": "the organization's webhook signing secret was first made; target: the organization",
  "webhook-secret.rotate": "an admin rotated the webhook signing secret; target: the organization",
  "session.sign-in": "a member signed in through the identity provider; target: the user",
  "session.sign-in-failed": "a known member's sign-in was refused (expired link, identity provider); target: the user",
  "session.sign-out": "a member signed out; target: the user",
  "session.sign-out-everywhere": "a member's sessions were all ended (by them or an admin); target: the user",
  "sign-in-domain.approve": "the operator approved joining by an email domain; target: the domain",
  "sign-in-domain.revoke": "the operator withdrew a sign-in domain; target: the domain",
  "access.denied": "a caller was refused (role, sandbox key or ownership); target: the operation or record",
  "security.flagged": "the scanner flagged a call (prompt injection) and let it pass; target: the category",
  "security.blocked": "the scanner refused a call; target: the category",
  "mcp.server.create": "an admin added an MCP tool server; target: the server",
  "mcp.server.update": "an admin changed an MCP tool server; target: the server",
  "mcp.server.delete": "an admin removed an MCP tool server; target: the server",
  "mcp.access.set": "an admin limited a key's or service account's tool access; target: the key or account",
  "mcp.access.clear": "an admin lifted a key's or service account's tool limits; target: the key or account",
  "mcp.tool.call": "an agent called a tool through the gateway (whatever the outcome); target: `server__tool`",
  "mcp.resource.read": "an agent read a tool server's resource; target: the server",
  "mcp.prompt.get": "an agent fetched a tool server's prompt; target: the server",
} as const satisfies Record<string, string>;

/** An audit entry's action: a name of the table, so the type checker refuses any other. */
export type AuditAction = keyof typeof AUDIT_ACTIONS;
