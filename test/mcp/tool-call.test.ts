/**
 * One tool call under the policy, with the store of an in-process gateway and a span that
 * records what it is given: a child span per call with bounded attributes, an audit row
 * whatever the outcome, metrics by outcome; a sandbox key answered by the simulated server.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Identity } from "../../src/domain/identity.ts";
import type { AttributeValue, TraceSpan } from "../../src/lib/tracing/trace-span.ts";
import { NOOP_SPAN } from "../../src/lib/tracing/trace-span.ts";
import { MetricsRegistry } from "../../src/lib/metrics.ts";
import { McpMetrics } from "../../src/mcp/mcp-metrics.ts";
import type { McpServices } from "../../src/mcp/mcp-services.ts";
import { callTool } from "../../src/mcp/tool-call.ts";
import { UpstreamPool } from "../../src/mcp/upstream-pool.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;
let svc: McpServices;
let registry: MetricsRegistry;

function recordingSpan(): TraceSpan & { children: { name: string; attrs: Record<string, AttributeValue>; ended: boolean }[] } {
  const children: { name: string; attrs: Record<string, AttributeValue>; ended: boolean }[] = [];
  return {
    ...NOOP_SPAN,
    recording: true,
    children,
    child(name) {
      const rec = { name, attrs: {} as Record<string, AttributeValue>, ended: false };
      children.push(rec);
      return {
        ...NOOP_SPAN,
        recording: true,
        set: (k: string, v: AttributeValue | undefined | null) => void (v !== undefined && v !== null && (rec.attrs[k] = v)),
        end: () => void (rec.ended = true),
      };
    },
  };
}

/** A sandbox identity of the gateway's organization (its admin service account, with a test key). */
function sandboxIdentity(): Identity {
  const { organization, serviceAccount, apiKey } = gw.init;
  return {
    kind: "serviceAccount",
    id: serviceAccount.id,
    role: "admin",
    organization,
    serviceAccount,
    key: { ...apiKey, keyType: "test" },
  };
}

beforeAll(async () => {
  gw = await startInProcessGateway();
  registry = new MetricsRegistry();
  svc = {
    store: gw.rt.store,
    pool: new UpstreamPool(gw.rt.services.box, () => {}),
    metrics: new McpMetrics(registry, () => 0),
    preferences: (orgId) => gw.rt.store.getOrgPreferences(orgId),
    now: () => gw.clock.now,
    log: gw.rt.log,
  };
});

afterAll(async () => {
  await gw?.stop();
});

const caller = (trace: TraceSpan) => ({
  identity: sandboxIdentity(),
  actor: { ref: `sa:${gw.init.serviceAccount.id}`, ip: "127.0.0.1", userAgent: "test" },
  requestId: "req-1",
  trace,
});

test("a sandbox call is answered by the simulated server, traced, counted and audited without its text", async () => {
  const span = recordingSpan();
  const result = await callTool(svc, caller(span), {
    name: "sandbox__echo",
    arguments: { message: "hello there" },
    signal: new AbortController().signal,
  });
  expect(result.content).toEqual([{ type: "text", text: "hello there" }]);
  expect(span.children).toEqual([
    {
      name: "mcp tools/call",
      attrs: { "gw.mcp.server": "sandbox", "gw.mcp.tool": "echo", "gw.mcp.outcome": "ok", "gw.mcp.scan.result": "passed" },
      ended: true,
    },
  ]);
  expect(registry.render()).toContain('gateway_mcp_tool_calls_total{outcome="ok"} 1');
  const entry = (await gw.rt.store.listAudit(gw.init.organization.id, { limit: 5, before: null })).entries.find(
    (e) => e.action === "mcp.tool.call",
  );
  expect(entry?.target).toBe("sandbox__echo");
  expect(entry?.details).toMatchObject({ server: "sandbox", tool: "echo", outcome: "ok", sandbox: true, requestId: "req-1" });
  expect(JSON.stringify(entry)).not.toContain("hello there");
});

test("an unknown tool is refused as a protocol error, and the refusal is audited and counted too", async () => {
  const span = recordingSpan();
  const err = (await callTool(svc, caller(span), { name: "wiki__weather", arguments: {}, signal: new AbortController().signal }).catch(
    (e: Error) => e,
  )) as Error;
  expect(err.message).toContain("Unknown tool: wiki__weather");
  expect(span.children[0]?.attrs["gw.mcp.outcome"]).toBe("refused");
  expect(registry.render()).toContain('gateway_mcp_tool_calls_total{outcome="refused"} 1');
  const entries = (await gw.rt.store.listAudit(gw.init.organization.id, { limit: 5, before: null })).entries;
  expect(entries.find((e) => e.action === "mcp.tool.call" && e.target === "wiki__weather")?.details).toMatchObject({ outcome: "refused" });
});

test("with a tool grant the tool is named alone, only the grant's tools are allowed, and the span and audit row say it came by grant", async () => {
  const span = recordingSpan();
  const grant = {
    id: "g-1",
    serverId: "mcp_x",
    server: "wiki",
    tools: ["echo"],
    expiresAt: Number.MAX_SAFE_INTEGER,
    callRequestId: "call-9",
  };
  const granted = { ...caller(span), grant };
  const signal = new AbortController().signal;
  // A sandbox key's grant leads to the simulated server, whichever server it names.
  const result = await callTool(svc, granted, { name: "echo", arguments: { message: "by grant" }, signal });
  expect(result.content).toEqual([{ type: "text", text: "by grant" }]);
  expect(span.children[0]?.attrs).toMatchObject({ "gw.mcp.server": "sandbox", "gw.mcp.tool": "echo", "gw.mcp.via": "tool-grant" });
  const err = (await callTool(svc, granted, { name: "add", arguments: { a: 1, b: 2 }, signal }).catch((e: Error) => e)) as Error;
  expect(err.message).toContain("Unknown tool: add");
  const entries = (await gw.rt.store.listAudit(gw.init.organization.id, { limit: 5, before: null })).entries;
  expect(entries.find((e) => e.action === "mcp.tool.call" && e.details.tool === "echo")?.details).toMatchObject({
    via: "tool-grant",
    callRequestId: "call-9",
    outcome: "ok",
  });
});
