/**
 * What the MCP gateway's request handlers share: the store, the upstream connections,
 * metrics, the organization's preferences, and the caller of the request at hand. The
 * servers a caller can reach: the organization's, less those the geography policy
 * refuses and those its allow lists leave out; none for a sandbox key; with a tool
 * grant, at most the one server it names.
 */
import type { Actor, Identity } from "../domain/identity.ts";
import type { OrgPreferences } from "../domain/types.ts";
import type { Logger } from "../lib/log.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";
import { isSandbox } from "../pipeline/sandbox.ts";
import { isAuthorizedCountry } from "../policy/geography.ts";
import type { Store } from "../store/store.ts";
import type { McpMetrics } from "./mcp-metrics.ts";
import type { McpServerRecord, ToolGrant } from "../domain/mcp-records.ts";
import { allowanceFor, allowsServer, type ToolAllowance } from "./tool-access.ts";
import type { UpstreamPool } from "./upstream-pool.ts";

export interface McpServices {
  store: Store;
  pool: UpstreamPool;
  metrics: McpMetrics;
  preferences(orgId: string): Promise<OrgPreferences>;
  now(): number;
  log: Logger;
}

/** What a log line may say of a failure: its class, never its message (an upstream's error text may echo what it was sent). */
export const failureName = (err: unknown): string => (err instanceof Error ? err.name : typeof err);

/** Who sent the MCP request being handled (from the request runner's admission). */
export interface McpCaller {
  identity: Identity;
  actor: Actor;
  requestId: string;
  trace: TraceSpan;
  /** Present when a provider calls back with a tool grant: the caller is its holder, limited to the grant. */
  grant?: ToolGrant;
}

export interface Reachable {
  servers: McpServerRecord[];
  allowance: ToolAllowance | null;
}

/** A server with a declared country runs only where the geography policy allows, as a provider would. */
export const geographyAllows = (server: McpServerRecord): boolean => server.country === null || isAuthorizedCountry(server.country);

export async function reachableServers(svc: McpServices, caller: McpCaller): Promise<Reachable> {
  const allowance = await allowanceFor(svc.store, caller.identity);
  // A leaked test key must never reach a real tool server.
  if (isSandbox(caller.identity)) return { servers: [], allowance };
  const all = await svc.store.listMcpServers(caller.identity.organization.id);
  svc.pool.retire(caller.identity.organization.id, all);
  const grant = caller.grant;
  return {
    servers: all.filter((s) => geographyAllows(s) && allowsServer(allowance, s.name) && (!grant || s.id === grant.serverId)),
    allowance,
  };
}
