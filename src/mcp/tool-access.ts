/**
 * Per-key tool access: a service account, or one of its keys, may be limited to some
 * servers and tools (allow lists, `*` matching any run of characters). A key's own
 * lists take precedence over its service account's; without any, every server and
 * tool of the organization is allowed. A tool not allowed is absent from `tools/list`
 * and refused on `tools/call`, the same as one that does not exist. A server's resources
 * and prompts are no tools: they need every tool of the server allowed.
 */
import type { Identity } from "../domain/identity.ts";
import type { McpStore } from "../store/mcp-store.ts";

/** Tools are exposed as `<server>__<tool>`; server names cannot contain the separator. */
export const NAMESPACE_SEPARATOR = "__";

export interface ToolAllowance {
  servers: string[];
  tools: string[];
}

/**
 * Whether `name` matches `pattern` (`*` any run of characters, everything else literal).
 * Not a regular expression: one of many stars (`*a*a*a…*b`, an admin's to write) backtracks
 * through every way of placing them, which holds the node's one thread for minutes. This
 * walk goes back only to the last star, so it takes at most `pattern.length × name.length` steps.
 */
export function matchesPattern(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  // The last star seen, and where in `name` its run now ends.
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = n;
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (star !== -1) {
      // The last star takes one character more, and the rest is tried again after it.
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

export const namespaced = (server: string, tool: string) => `${server}${NAMESPACE_SEPARATOR}${tool}`;

/** `github__create_issue` -> `{ server: "github", tool: "create_issue" }`; null without the separator. */
export function splitNamespaced(name: string): { server: string; tool: string } | null {
  const at = name.indexOf(NAMESPACE_SEPARATOR);
  if (at <= 0) return null;
  return { server: name.slice(0, at), tool: name.slice(at + NAMESPACE_SEPARATOR.length) };
}

export function allowsServer(allowance: ToolAllowance | null, server: string): boolean {
  return allowance === null || allowance.servers.some((p) => matchesPattern(p, server));
}

export function allowsTool(allowance: ToolAllowance | null, server: string, tool: string): boolean {
  return (
    allowsServer(allowance, server) && (allowance === null || allowance.tools.some((p) => matchesPattern(p, namespaced(server, tool))))
  );
}

/**
 * Whether the lists allow every tool of `server` (`*`, `github__*`, `git*`), which is what
 * its resources and prompts need: a key allowed one tool must not read the rest of what
 * the server holds. A pattern allows every `<server>__<tool>` exactly when it ends in `*`
 * and what comes before that `*` matches a beginning of `<server>__`.
 */
export function allowsWholeServer(allowance: ToolAllowance | null, server: string): boolean {
  if (allowance === null) return true;
  if (!allowsServer(allowance, server)) return false;
  const prefix = namespaced(server, "");
  return allowance.tools.some((pattern) => {
    if (!pattern.endsWith("*")) return false;
    const head = pattern.replace(/\*+$/, "");
    for (let end = 0; end <= prefix.length; end++) if (matchesPattern(head, prefix.slice(0, end))) return true;
    return false;
  });
}

/** The caller's allow lists: a key's own, else its service account's; null (everything) for a dashboard session. */
export async function allowanceFor(store: McpStore, identity: Identity): Promise<ToolAllowance | null> {
  if (identity.kind !== "serviceAccount") return null;
  const rows = await store.getMcpKeyAccess([identity.key.id, identity.serviceAccount.id]);
  const row = rows.find((r) => r.subjectId === identity.key.id) ?? rows.find((r) => r.subjectId === identity.serviceAccount.id);
  return row && row.orgId === identity.organization.id ? { servers: row.servers, tools: row.tools } : null;
}
