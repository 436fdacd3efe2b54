/** Builds the MCP gateway from the runtime's pieces: the store, the sealing box, metrics and the preferences cache. */
import type { OrgPreferences } from "../domain/types.ts";
import { bodyLimits } from "../lib/json-body.ts";
import type { Logger } from "../lib/log.ts";
import type { MetricsRegistry } from "../lib/metrics.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import type { Store } from "../store/store.ts";
import { McpGateway } from "./mcp-gateway.ts";
import { McpMetrics } from "./mcp-metrics.ts";
import { UpstreamPool } from "./upstream-pool.ts";

export interface McpGatewayParts {
  store: Store;
  box: SecretBox;
  metrics: MetricsRegistry;
  preferences(orgId: string): Promise<OrgPreferences>;
  now(): number;
  log: Logger;
  maxBodyBytes: number;
  /** How long a POST's body may take to arrive (GW_BODY_TIMEOUT_S). */
  bodyTimeoutS: number;
  /** The longest a tool call that reports progress may take (GW_UPSTREAM_TIMEOUT_S). */
  maxToolCallMs: number;
}

export function openMcpGateway(parts: McpGatewayParts): McpGateway {
  let gateway: McpGateway | null = null;
  const pool = new UpstreamPool(parts.box, (orgId) => gateway?.toolsChanged(orgId), {
    maxResponseBytes: parts.maxBodyBytes,
    maxCallMs: parts.maxToolCallMs,
  });
  const metrics = new McpMetrics(parts.metrics, () => gateway?.sessions.size ?? 0);
  gateway = new McpGateway(
    { store: parts.store, pool, metrics, preferences: parts.preferences, now: parts.now, log: parts.log },
    bodyLimits(parts.maxBodyBytes, parts.bodyTimeoutS),
  );
  return gateway;
}
