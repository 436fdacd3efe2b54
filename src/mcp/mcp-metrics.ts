/**
 * The MCP gateway's Prometheus series, with bounded labels only: an outcome from a fixed
 * list, a scan category and direction; never a server, tool or key name (organization
 * text), which the audit log records instead.
 */
import { Counter, Gauge, Histogram, type MetricsRegistry } from "../lib/metrics.ts";
import type { Category } from "./text-findings.ts";

/** `ok`: forwarded and passed; `tool_error`: the tool said it failed; `blocked`: the scan stopped it; `refused`: unknown or not allowed; `failed`: the server could not be reached. */
export type CallOutcome = "ok" | "tool_error" | "blocked" | "refused" | "failed";

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class McpMetrics {
  private readonly calls: Counter;
  private readonly findings: Counter;
  private readonly duration: Histogram;

  constructor(registry: MetricsRegistry, sessions: () => number) {
    this.calls = registry.register(
      new Counter("gateway_mcp_tool_calls_total", "MCP tool calls through the gateway, by outcome.", ["outcome"]),
    );
    this.findings = registry.register(
      new Counter("gateway_mcp_scan_findings_total", "Findings in MCP tool arguments and results, by category.", ["direction", "category"]),
    );
    this.duration = registry.register(
      new Histogram("gateway_mcp_tool_call_duration_seconds", "MCP tool call duration, scans included.", ["outcome"], DURATION_BUCKETS),
    );
    registry.register(new Gauge("gateway_mcp_sessions", "Open MCP agent sessions on this node.", sessions));
  }

  call(outcome: CallOutcome, seconds: number): void {
    this.calls.inc([outcome]);
    this.duration.observe([outcome], seconds);
  }

  found(direction: "arguments" | "result", counts: Record<Category, number>): void {
    for (const category of ["secret", "injection", "pii"] as const)
      if (counts[category]) this.findings.inc([direction, category], counts[category]);
  }
}
