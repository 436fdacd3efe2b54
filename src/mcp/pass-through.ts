/**
 * Resources and prompts passed through from the servers that offer them, under the
 * policy tool calls meet: what reaches the model (a resource's text, a prompt's
 * messages) is scanned as a tool result is, a prompt's arguments and a resource's URI
 * as a tool's arguments are (a URI goes only to the server that lists it),
 * a server's error reaches the agent only in words that pass the scan, and each read
 * writes one audit row (`mcp.resource.read`, `mcp.prompt.get`; never its text). A
 * server that fails a listing is left out of it, as in `tools/list`.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import {
  ErrorCode,
  type GetPromptResult,
  McpError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerRecord } from "../domain/mcp-records.ts";
import { recordAudit } from "../services/audit.ts";
import { failureName, type McpCaller, type McpServices } from "./mcp-services.ts";
import { forward } from "./tool-call.ts";
import { resultPolicy, type ScanOutcome, scanArguments, scanResult } from "./tool-policy.ts";
import type { Upstream } from "./upstream.ts";
import type { AuditAction } from "../domain/audit-actions.ts";

export interface Offering {
  server: McpServerRecord;
  upstream: Upstream;
}

/** Every offering server's items; one that fails is logged and left out (its error text never reaches the agent). */
export async function gathered<T>(svc: McpServices, offering: Offering[], list: (o: Offering) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const o of offering) {
    try {
      out.push(...(await list(o)));
    } catch (err) {
      svc.log.warn("mcp server unreachable", { orgId: o.server.orgId, serverId: o.server.id, error: failureName(err) });
    }
  }
  return out;
}

const refusal = (verdict: ScanOutcome) =>
  new McpError(ErrorCode.InvalidRequest, `Blocked by the gateway's security policy: ${verdict.reason}.`);

/**
 * Which server a URI is read from: the one that lists it, else the first whose templates
 * match it. A URI belongs to no namespace, and asking each server in turn would send it
 * to servers it was not meant for and let any that answers everything shadow the rest.
 */
async function serverOf(svc: McpServices, offering: Offering[], uri: string): Promise<Offering | null> {
  const listing = await Promise.all(
    offering.map(async (o) => ({
      o,
      resources: await gathered(svc, [o], ({ upstream }) =>
        upstream.allPages<Resource>(async (c) => {
          const page = await upstream.client.listResources(c ? { cursor: c } : {});
          return { items: page.resources, ...(page.nextCursor ? { next: page.nextCursor } : {}) };
        }),
      ),
    })),
  );
  const listed = listing.find(({ resources }) => resources.some((r) => r.uri === uri));
  if (listed) return listed.o;
  for (const o of offering) {
    const templates = await gathered(svc, [o], ({ upstream }) =>
      upstream.allPages<ResourceTemplate>(async (c) => {
        const page = await upstream.client.listResourceTemplates(c ? { cursor: c } : {});
        return { items: page.resourceTemplates, ...(page.nextCursor ? { next: page.nextCursor } : {}) };
      }),
    );
    if (templates.some((t) => matches(t.uriTemplate, uri))) return o;
  }
  return null;
}

const matches = (template: string, uri: string): boolean => {
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    // A template the SDK refuses (too long, malformed) matches nothing.
    return false;
  }
};

/** `resources/read`, from the server the URI is listed or templated by. */
export async function readResource(
  svc: McpServices,
  caller: McpCaller,
  offering: Offering[],
  uri: string,
  signal: AbortSignal,
): Promise<ReadResourceResult> {
  const prefs = await svc.preferences(caller.identity.organization.id);
  const owner = await serverOf(svc, offering, uri);
  if (owner) {
    const { server, upstream } = owner;
    // The URI leaves for the server as a tool's arguments do.
    const uriScan = scanArguments({ uri }, prefs);
    if (uriScan.action !== "passed") {
      await audit(svc, caller, "mcp.resource.read", server, { ...uriScan, action: "blocked" });
      throw refusal({ ...uriScan, reason: uriScan.reason ?? "the URI contains personal data" });
    }
    const read = (await forward(svc, server, prefs, uri.slice(0, 200), () =>
      upstream.client.readResource({ uri }, { signal }),
    )) as ReadResourceResult;
    // What a resource says reaches the model as a tool result does: the same scan, of all the server sent.
    const { contents: sent, ...rest } = read;
    const scanned: Record<string, unknown> = { ...rest, content: sent.map((c) => ({ type: "resource", resource: c })) };
    const verdict = scanResult(scanned, resultPolicy(prefs, server.scan), uri.slice(0, 200), prefs.phoneRegion);
    await audit(svc, caller, "mcp.resource.read", server, verdict);
    if (verdict.action === "blocked") throw refusal(verdict);
    const { content, ...others } = scanned;
    return { ...others, contents: (content as { resource: ReadResourceResult["contents"][number] }[]).map((c) => c.resource) };
  }
  throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri.slice(0, 300)}`);
}

/** `prompts/get` of `name` (the server's own name for it) on `found`; `shown` is the namespaced name the agent used. */
export async function getPrompt(
  svc: McpServices,
  caller: McpCaller,
  { server, upstream }: Offering,
  req: { name: string; shown: string; arguments?: Record<string, string> },
  signal: AbortSignal,
): Promise<GetPromptResult> {
  const prefs = await svc.preferences(caller.identity.organization.id);
  const args = structuredClone(req.arguments ?? {});
  // A prompt's arguments leave for the server as a tool's do.
  const argScan = scanArguments(args, prefs);
  if (argScan.action === "blocked") {
    await audit(svc, caller, "mcp.prompt.get", server, argScan);
    throw refusal(argScan);
  }
  const got = (await forward(svc, server, prefs, req.shown, () =>
    upstream.client.getPrompt({ name: req.name, arguments: args as Record<string, string> }, { signal }),
  )) as GetPromptResult;
  // The messages (and the description, and all else the server sent) reach the model: scanned as a tool result, redacted in place.
  const { messages, description: said, ...rest } = got;
  const parts: Record<string, unknown>[] = messages.map((m) => m.content as Record<string, unknown>);
  const description = { type: "text", text: said ?? "" };
  const scanned: Record<string, unknown> = { ...rest, content: [...parts, description] };
  const verdict = scanResult(scanned, resultPolicy(prefs, server.scan), req.shown, prefs.phoneRegion);
  await audit(svc, caller, "mcp.prompt.get", server, verdict);
  if (verdict.action === "blocked") throw refusal(verdict);
  const { content: _parts, ...others } = scanned;
  return { ...others, messages, ...(said !== undefined ? { description: description.text } : {}) } as GetPromptResult;
}

/** One row per read, whatever its outcome; never the URI's or prompt's text. */
async function audit(
  svc: McpServices,
  caller: McpCaller,
  action: AuditAction,
  server: McpServerRecord,
  verdict: ScanOutcome,
): Promise<void> {
  const { identity } = caller;
  await recordAudit(
    svc.store,
    identity.organization.id,
    caller.actor,
    action,
    server.name,
    {
      server: server.name,
      keyId: identity.kind === "serviceAccount" ? identity.key.id : null,
      outcome: verdict.action === "blocked" ? "blocked" : "ok",
      scan: verdict.action,
      findings: verdict.counts,
      requestId: caller.requestId,
    },
    svc.now(),
  ).catch((err) => svc.log.error("mcp read not audited", { orgId: identity.organization.id, error: failureName(err) }));
}
