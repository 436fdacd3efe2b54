/**
 * One `tools/call` under the gateway's policy, in order: find the tool among those the
 * caller may use (unknown and not allowed answer alike), scan the arguments, forward
 * to the server (or the simulated one for a sandbox key) with progress streamed back,
 * scan the result, then audit (server, tool, key, sizes, findings, duration; never
 * arguments or results), count and trace it.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpScanPolicy, McpServerRecord } from "../domain/mcp-records.ts";
import type { OrgPreferences } from "../domain/types.ts";
import { isSandbox } from "../pipeline/sandbox.ts";
import { recordAudit } from "../services/audit.ts";
import type { CallOutcome } from "./mcp-metrics.ts";
import { failureName, type McpCaller, type McpServices, reachableServers } from "./mcp-services.ts";
import { runSandboxTool, SANDBOX_SERVER } from "./sandbox-tools.ts";
import type { Category } from "./text-findings.ts";
import { allowsTool, splitNamespaced } from "./tool-access.ts";
import { blockedResult, resultPolicy, type ScanAction, scanArguments, scanResult } from "./tool-policy.ts";
import type { Upstream } from "./upstream.ts";
import { describedSafely } from "./tool-descriptions.ts";

export interface ToolRequest {
  name: string;
  arguments: Record<string, unknown>;
  signal: AbortSignal;
  /** Sends a progress notification to the agent (when it asked for progress). */
  progress?: (p: ProgressNote) => void;
}

type ProgressNote = { progress: number; total?: number; message?: string };

const NONE: Record<Category, number> = { secret: 0, injection: 0, pii: 0 };

interface CallRecord {
  server: string;
  tool: string;
  outcome: CallOutcome;
  argumentScan: ScanAction | null;
  resultScan: ScanAction | null;
  argumentFindings: Record<Category, number>;
  resultFindings: Record<Category, number>;
  resultBytes: number;
}

/** Refused as if it did not exist: a caller learns nothing of tools it may not use. */
const unknownTool = (name: string) =>
  new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 200)}. tools/list names the tools this key may call.`);

export async function callTool(svc: McpServices, caller: McpCaller, req: ToolRequest): Promise<CallToolResult> {
  const started = performance.now();
  const span = caller.trace.child("mcp tools/call", true);
  const parts = toolParts(caller, req.name);
  const rec: CallRecord = {
    server: parts?.server ?? "",
    tool: parts?.tool ?? req.name,
    outcome: "refused",
    argumentScan: null,
    resultScan: null,
    argumentFindings: NONE,
    resultFindings: NONE,
    resultBytes: 0,
  };
  span.set("gw.mcp.server", rec.server);
  span.set("gw.mcp.tool", rec.tool);
  if (caller.grant) span.set("gw.mcp.via", "tool-grant");
  try {
    const result = await scannedCall(svc, caller, req, rec);
    return result;
  } catch (err) {
    if (rec.outcome !== "refused") rec.outcome = "failed";
    span.fail(err);
    throw err;
  } finally {
    const seconds = (performance.now() - started) / 1000;
    span.set("gw.mcp.outcome", rec.outcome);
    span.set("gw.mcp.scan.result", rec.resultScan);
    span.end();
    svc.metrics.call(rec.outcome, seconds);
    await audit(svc, caller, rec, Math.round(seconds * 1000));
  }
}

async function scannedCall(svc: McpServices, caller: McpCaller, req: ToolRequest, rec: CallRecord): Promise<CallToolResult> {
  const { identity } = caller;
  const { servers, allowance } = await reachableServers(svc, caller);
  const sandbox = isSandbox(identity);
  const server = sandbox ? null : servers.find((s) => s.name === rec.server);
  if ((!sandbox && !server) || (sandbox && rec.server !== SANDBOX_SERVER) || !allowsTool(allowance, rec.server, rec.tool))
    throw unknownTool(req.name);
  if (caller.grant?.tools && !caller.grant.tools.includes(rec.tool)) throw unknownTool(req.name);
  const prefs = await svc.preferences(identity.organization.id);
  if (server) await assertListed(svc, server, prefs, req.name, rec);
  const args = structuredClone(req.arguments);
  const argScan = scanArguments(args, prefs);
  rec.argumentScan = argScan.action;
  rec.argumentFindings = argScan.counts;
  svc.metrics.found("arguments", argScan.counts);
  if (argScan.action === "blocked") {
    rec.outcome = "blocked";
    return blockedResult(argScan.reason ?? "the arguments were refused", argScan.counts) as CallToolResult;
  }
  rec.outcome = "failed";
  let result: Record<string, unknown>;
  if (server) {
    const policy = resultPolicy(prefs, server.scan);
    const progress = req.progress;
    result = await forward(svc, server, prefs, req.name, async () =>
      boundedCall(
        svc,
        await svc.pool.get(server),
        { name: rec.tool, arguments: args },
        req.signal,
        progress && ((p) => progress(scannedProgress(p, policy, req.name, prefs.phoneRegion))),
      ),
    );
  } else {
    const simulated = runSandboxTool(rec.tool, args);
    if (!simulated) throw unknownTool(req.name);
    result = simulated as Record<string, unknown>;
  }
  rec.resultBytes = Buffer.byteLength(JSON.stringify(result));
  const resultScan = scanResult(result, resultPolicy(prefs, server?.scan ?? {}), req.name, prefs.phoneRegion);
  rec.resultScan = resultScan.action;
  rec.resultFindings = resultScan.counts;
  svc.metrics.found("result", resultScan.counts);
  if (resultScan.action === "blocked") {
    rec.outcome = "blocked";
    return blockedResult(resultScan.reason ?? "the result was refused", resultScan.counts) as CallToolResult;
  }
  rec.outcome = result.isError === true ? "tool_error" : "ok";
  return result as CallToolResult;
}

/**
 * A tool is called only if tools/list shows it: one the scan of its description left out
 * (an injection, a credential), or whose name MCP does not allow, is refused as one that
 * does not exist, though a model told its name (by an injection elsewhere) asks for it.
 * The listing is the server's cached one, and the verdicts with it.
 */
async function assertListed(
  svc: McpServices,
  server: McpServerRecord,
  prefs: OrgPreferences,
  name: string,
  rec: CallRecord,
): Promise<void> {
  rec.outcome = "failed";
  const tools = (await forward(svc, server, prefs, name, async () => ({
    tools: await (await svc.pool.get(server)).listTools(),
  }))) as { tools: Tool[] };
  const hidden = () => svc.log.warn("mcp tool hidden by the scan of its description", { orgId: server.orgId, serverId: server.id });
  const listed = describedSafely(tools.tools, resultPolicy(prefs, server.scan), prefs.phoneRegion, hidden);
  rec.outcome = "refused";
  if (!listed.some((t) => t.name === rec.tool)) throw unknownTool(name);
}

/**
 * The upstream call, with progress passed on when the agent asked for it. Each report
 * restarts the SDK's 60-second timeout, so the total is bounded too (GW_UPSTREAM_TIMEOUT_S),
 * or a server could hold the call for ever; past it the SDK gives up without telling the
 * server, so the cancellation is sent here.
 */
async function boundedCall(
  svc: McpServices,
  upstream: Upstream,
  params: { name: string; arguments: Record<string, unknown> },
  signal: AbortSignal,
  progress: ((p: ProgressNote) => void) | undefined,
): Promise<unknown> {
  const stop = new AbortController();
  try {
    return await upstream.client.callTool(params, undefined, {
      signal: AbortSignal.any([signal, stop.signal]),
      ...(progress ? { onprogress: progress, resetTimeoutOnProgress: true, maxTotalTimeout: svc.pool.maxCallMs } : {}),
    });
  } catch (err) {
    if (err instanceof McpError && (err.data as { maxTotalTimeout?: number } | undefined)?.maxTotalTimeout) stop.abort(err);
    throw err;
  }
}

/**
 * The server's answer. A protocol error it returns reaches the agent, less the server's
 * credentials, only if its message passes the result scan (it is text the model may read); a failure to reach it is told
 * in the gateway's words, never the transport's (which may quote what the server sent).
 */
export async function forward(
  svc: McpServices,
  server: McpServerRecord,
  prefs: OrgPreferences,
  name: string,
  call: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  try {
    return (await call()) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.RequestTimeout) {
      // A server may quote the credentials it was sent; they are never the agent's to read.
      const part = { type: "text", text: svc.pool.withoutCredentials(server, err.message) };
      const passes = scanResult({ content: [part] }, resultPolicy(prefs, server.scan), name, prefs.phoneRegion).action !== "blocked";
      throw new McpError(err.code, passes ? part.text : `The tool server ${server.name} refused the call (code ${err.code}).`);
    }
    svc.log.warn("mcp tool call failed", { orgId: server.orgId, serverId: server.id, error: failureName(err) });
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
      throw new McpError(ErrorCode.InternalError, `The tool server ${server.name} did not answer in the time the gateway allows.`);
    throw new McpError(ErrorCode.InternalError, `The tool server ${server.name} could not be reached or did not answer.`);
  }
}

/**
 * A progress notification as the agent gets it. Its message is text the model may read,
 * so it is scanned as the result is: passed, or redacted, or left out (blocked or
 * flagged, since a notification has no place to mark it).
 */
function scannedProgress(p: ProgressNote, policy: McpScanPolicy, name: string, phoneRegion: string): ProgressNote {
  const { message, ...rest } = p;
  if (message === undefined) return rest;
  const part = { type: "text", text: message };
  const { action } = scanResult({ content: [part] }, policy, name, phoneRegion);
  return action === "passed" || action === "redacted" ? { ...rest, message: part.text } : rest;
}

/**
 * The server and tool a name stands for. An agent names `<server>__<tool>`; a provider
 * calling back with a tool grant names the tool alone, as it would on the server itself
 * (the grant says which server; a sandbox key's is the simulated one).
 */
function toolParts(caller: McpCaller, name: string): { server: string; tool: string } | null {
  const grant = caller.grant;
  if (!grant) return splitNamespaced(name);
  return { server: isSandbox(caller.identity) ? SANDBOX_SERVER : grant.server, tool: name };
}

/** One audit row per call, whatever happened; a failed write is not the agent's error. */
async function audit(svc: McpServices, caller: McpCaller, rec: CallRecord, durationMs: number): Promise<void> {
  const { identity } = caller;
  await recordAudit(
    svc.store,
    identity.organization.id,
    caller.actor,
    "mcp.tool.call",
    rec.server ? `${rec.server}__${rec.tool}`.slice(0, 300) : rec.tool.slice(0, 300),
    {
      server: rec.server.slice(0, 100),
      tool: rec.tool.slice(0, 200),
      keyId: identity.kind === "serviceAccount" ? identity.key.id : null,
      sandbox: isSandbox(identity),
      // Called by a model provider for a hosted `mcp` tool, with a grant from the caller's model call.
      ...(caller.grant ? { via: "tool-grant", callRequestId: caller.grant.callRequestId } : {}),
      outcome: rec.outcome,
      argumentScan: rec.argumentScan,
      resultScan: rec.resultScan,
      findings: { arguments: rec.argumentFindings, result: rec.resultFindings },
      resultBytes: rec.resultBytes,
      durationMs,
      requestId: caller.requestId,
    },
    svc.now(),
  ).catch((err) => svc.log.error("mcp tool call not audited", { orgId: identity.organization.id, error: failureName(err) }));
}
