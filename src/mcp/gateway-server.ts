/**
 * The gateway as an MCP server to one agent session (the official SDK's low-level
 * Server): `tools/list` gathers the tools of every server the caller may reach,
 * namespaced `<server>__<tool>` and filtered by its allow lists and the scan of what
 * each tool says of itself; `tools/call` runs under the policy (tool-call.ts); resources
 * and prompts pass through from the servers that offer them (and whose every tool the
 * caller may use), scanned (pass-through.ts).
 * Each request's caller comes from the request runner's admission.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Prompt,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../version.ts";
import { isSandbox } from "../pipeline/sandbox.ts";
import { failureName, type McpCaller, type McpServices, reachableServers } from "./mcp-services.ts";
import type { McpServerRecord } from "../domain/mcp-records.ts";
import { SANDBOX_SERVER, sandboxTools } from "./sandbox-tools.ts";
import { allowsTool, allowsWholeServer, namespaced, splitNamespaced } from "./tool-access.ts";
import { callTool } from "./tool-call.ts";
import { gathered, getPrompt, readResource } from "./pass-through.ts";
import { describedSafely, listedSafely } from "./tool-descriptions.ts";
import { resultPolicy } from "./tool-policy.ts";
import type { Upstream } from "./upstream.ts";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function callerOf(extra: Extra): McpCaller {
  const caller = extra.authInfo?.extra?.caller as McpCaller | undefined;
  // The surface always passes it; a request without one never reached the handlers through admission.
  if (!caller) throw new McpError(ErrorCode.InvalidRequest, "unauthenticated request");
  return caller;
}

/** Each reachable server that answers, with its connection; one that cannot be reached is left out of a listing. */
async function connected(svc: McpServices, servers: McpServerRecord[]): Promise<{ server: McpServerRecord; upstream: Upstream }[]> {
  const settled = await Promise.allSettled(servers.map(async (server) => ({ server, upstream: await svc.pool.get(server) })));
  return settled.flatMap((s, i) => {
    if (s.status === "fulfilled") return [s.value];
    const server = servers[i] as McpServerRecord;
    svc.log.warn("mcp server unreachable", { orgId: server.orgId, serverId: server.id, error: failureName(s.reason) });
    return [];
  });
}

async function listTools(svc: McpServices, caller: McpCaller): Promise<Tool[]> {
  const { servers, allowance } = await reachableServers(svc, caller);
  // With a grant, the provider sees the one server's tools under their own names, as on the server itself.
  const grant = caller.grant;
  const named = (server: string, tools: Tool[]) =>
    tools
      .filter((t) => allowsTool(allowance, server, t.name) && (!grant?.tools || grant.tools.includes(t.name)))
      .map((t) => (grant ? t : { ...t, name: namespaced(server, t.name) }));
  if (isSandbox(caller.identity)) return named(SANDBOX_SERVER, sandboxTools());
  const prefs = await svc.preferences(caller.identity.organization.id);
  const reached = await connected(svc, servers);
  const lists = await Promise.allSettled(
    reached.map(async ({ server, upstream }) => {
      const hidden = () => svc.log.warn("mcp tool hidden by the scan of its description", { orgId: server.orgId, serverId: server.id });
      // Not with this agent's signal: the listing is the organization's, shared by every agent waiting on it,
      // and one agent cancelling (or going away) would take the server out of the others' listings.
      const tools = describedSafely(await upstream.listTools(), resultPolicy(prefs, server.scan), prefs.phoneRegion, hidden);
      return named(server.name, tools);
    }),
  );
  return lists.flatMap((l, i) => {
    if (l.status === "fulfilled") return l.value;
    // A listing that failed (or was over the bound) leaves its server out, as one that cannot be reached.
    const { server } = reached[i] as { server: McpServerRecord };
    svc.log.warn("mcp server unreachable", { orgId: server.orgId, serverId: server.id, error: failureName(l.reason) });
    return [];
  });
}

/**
 * Servers that offer `what`, for pass-through listings, reads and gets: those whose every
 * tool the caller may use (a key allowed some tools of a server reads none of its
 * resources or prompts); none for a grant, which is for tools only.
 */
async function offering(svc: McpServices, caller: McpCaller, what: "resources" | "prompts") {
  if (caller.grant) return [];
  const { servers, allowance } = await reachableServers(svc, caller);
  const whole = servers.filter((s) => allowsWholeServer(allowance, s.name));
  return (await connected(svc, whole)).filter(({ upstream }) => upstream.offers(what));
}

/**
 * A pass-through listing of the servers that offer `what`: what each item says of itself
 * reaches the model as a tool's description does, so it is scanned as one (an item the
 * policy blocks is left out, and logged as `mcp <item> hidden by the scan of its description`).
 */
async function listing<T extends { description?: string }>(
  svc: McpServices,
  caller: McpCaller,
  what: "resources" | "prompts",
  item: string,
  idOf: (item: T) => string,
  list: (o: { server: McpServerRecord; upstream: Upstream }) => Promise<T[]>,
): Promise<T[]> {
  const prefs = await svc.preferences(caller.identity.organization.id);
  return gathered(svc, await offering(svc, caller, what), async (o) => {
    const hidden = () =>
      svc.log.warn(`mcp ${item} hidden by the scan of its description`, { orgId: o.server.orgId, serverId: o.server.id });
    return listedSafely(await list(o), resultPolicy(prefs, o.server.scan), prefs.phoneRegion, `${item}s`, idOf, hidden);
  });
}

export function createGatewayServer(svc: McpServices): Server {
  const server = new Server(
    { name: "gateway", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      instructions: "Tools of the organization's MCP servers, named <server>__<tool>, under the gateway's policy.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (_req, extra) => ({ tools: await listTools(svc, callerOf(extra)) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const token = req.params._meta?.progressToken;
    return callTool(svc, callerOf(extra), {
      name: req.params.name,
      arguments: (req.params.arguments ?? {}) as Record<string, unknown>,
      signal: extra.signal,
      ...(token !== undefined
        ? { progress: (p) => void extra.sendNotification({ method: "notifications/progress", params: { ...p, progressToken: token } }) }
        : {}),
    });
  });
  server.setRequestHandler(ListResourcesRequestSchema, async (_req, extra) => ({
    resources: await listing(
      svc,
      callerOf(extra),
      "resources",
      "resource",
      (r: Resource) => r.uri,
      ({ upstream }) =>
        upstream.allPages<Resource>(async (c) => toPage(await upstream.client.listResources(c ? { cursor: c } : {}), "resources")),
    ),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_req, extra) => ({
    resourceTemplates: await listing(
      svc,
      callerOf(extra),
      "resources",
      "resource template",
      (t: ResourceTemplate) => t.uriTemplate,
      ({ upstream }) =>
        upstream.allPages<ResourceTemplate>(async (c) =>
          toPage(await upstream.client.listResourceTemplates(c ? { cursor: c } : {}), "resourceTemplates"),
        ),
    ),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    const caller = callerOf(extra);
    return readResource(svc, caller, await offering(svc, caller, "resources"), req.params.uri, extra.signal);
  });
  server.setRequestHandler(ListPromptsRequestSchema, async (_req, extra) => ({
    prompts: await listing(
      svc,
      callerOf(extra),
      "prompts",
      "prompt",
      (p: Prompt) => p.name,
      async ({ server: s, upstream }) => {
        const listed = await upstream.allPages<Prompt>(async (c) =>
          toPage(await upstream.client.listPrompts(c ? { cursor: c } : {}), "prompts"),
        );
        return listed.map((p) => ({ ...p, name: namespaced(s.name, p.name) }));
      },
    ),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    const caller = callerOf(extra);
    const parts = splitNamespaced(req.params.name);
    const found = (await offering(svc, caller, "prompts")).find(({ server: s }) => s.name === parts?.server);
    if (!parts || !found) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${req.params.name.slice(0, 200)}`);
    const { name: shown, arguments: args } = req.params;
    return getPrompt(svc, caller, found, { name: parts.tool, shown, ...(args ? { arguments: args } : {}) }, extra.signal);
  });
  return server;
}

function toPage<T>(page: { nextCursor?: string }, key: string): { items: T[]; next?: string } {
  return { items: (page as Record<string, T[]>)[key] ?? [], ...(page.nextCursor ? { next: page.nextCursor } : {}) };
}
