/** MCP tool servers and per-key tool access as stored: the records the store, the MCP gateway and its operations share. */

/** What a tool result's scan does per category (scanning itself is always on). */
export interface McpScanPolicy {
  /** Injection aimed at the model: `block` turns the result into a tool error; `flag` passes it marked in `_meta`. */
  injection: "block" | "flag";
  /** Credentials in a result: blocked, or replaced by `[SECRET_KIND_n]` placeholders. */
  secrets: "block" | "redact";
  /** Personal data in a result: replaced by placeholders, blocked, or passed marked in `_meta`. */
  pii: "redact" | "block" | "flag";
}

/** The non-secret half of a server's credentials, shown by `mcp.server.list`. */
export type McpAuthInfo =
  | { type: "none" }
  | { type: "headers"; headerNames: string[] }
  | { type: "oauth"; tokenUrl: string; clientId: string; scope: string | null };

/** The sealed half: what is sent upstream. */
export type McpCredentials =
  | { type: "none" }
  | { type: "headers"; headers: Record<string, string> }
  | { type: "oauth"; tokenUrl: string; clientId: string; clientSecret: string; scope: string | null };

export interface McpServerRecord {
  id: string;
  orgId: string;
  /** The tool namespace: tools are exposed as `<name>__<tool>`. */
  name: string;
  url: string;
  /** ISO country where it runs; when set, the geography policy applies as to providers. */
  country: string | null;
  auth: McpAuthInfo;
  /** AES-256-GCM sealed McpCredentials bound to the record id; null without credentials. */
  secretCiphertext: string | null;
  /** Per-server overrides of the organization's result policy. */
  scan: Partial<McpScanPolicy>;
  createdAt: number;
  updatedAt: number;
}

/** A key's or service account's allow lists (absent: every server and tool of the organization). */
export interface McpKeyAccess {
  /** A service account id (`sa_...`, all its keys) or a key id (`key_...`). */
  subjectId: string;
  orgId: string;
  /** Server names, `*` for any. */
  servers: string[];
  /** Namespaced tool names (`github__create_issue`), with `*` matching any run of characters. */
  tools: string[];
  updatedAt: number;
}

/**
 * What a tool grant allows: a provider calling back into `/mcp` for a model's hosted
 * `mcp` tool (a Responses call naming a configured server by `server_label`) reaches
 * that one server, as the caller that made the call, and only these tools.
 */
export interface ToolGrant {
  /** The grant's own id: MCP sessions opened with it belong to it alone. */
  id: string;
  serverId: string;
  /** The server's name when the grant was issued (its tools are exposed under their own names). */
  server: string;
  /** The tools the call allowed (`allowed_tools`), or null for every tool the caller may use. */
  tools: string[] | null;
  /** Epoch ms after which the grant is refused. */
  expiresAt: number;
  /** The request id of the model call it was issued for: its tool calls' audit rows name it. */
  callRequestId: string;
}
