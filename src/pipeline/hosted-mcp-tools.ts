/**
 * Responses `mcp` tools that name one of the organization's configured tool servers
 * (`server_label` equal to its name, and no `server_url` or `connector_id`). The
 * provider must not be given the server's address and stored credentials: it would
 * call the server itself, unscanned. It is pointed at the gateway's own `/mcp`
 * instead, with a tool grant (services/tool-grant-tokens.ts) that stands for this
 * caller, on that one server, for minutes; the tool calls it makes then meet the same
 * policy as an agent's (docs/mcp.md). In two steps: the names are resolved (or refused
 * with a 400) before the call is planned, and each attempt's body is rewritten after
 * the call's stages, so the scan reads what the caller sent and never the grant.
 */
import type { Identity } from "../domain/identity.ts";
import { badRequest } from "../lib/errors.ts";
import type { ToolGrantTokens } from "../services/tool-grant-tokens.ts";

type Json = Record<string, unknown>;

/** Finds the configured server a caller may use by its name (the MCP gateway answers it). */
export interface ToolServerDirectory {
  /** Null when no such server is configured, or the geography policy or the caller's allow lists leave it out. */
  find(identity: Identity, name: string): Promise<{ id: string; name: string } | null>;
}

export interface HostedToolDeps {
  servers: ToolServerDirectory;
  grants: ToolGrantTokens;
  /** GW_PUBLIC_URL: where the provider reaches the gateway. */
  publicUrl: string | null;
}

const LOOPBACK = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

const isLabelOnly = (t: unknown): boolean => {
  const tool = t as Json | null;
  return tool?.type === "mcp" && typeof tool.server_label === "string" && tool.server_url == null && tool.connector_id == null;
};

/** Whether the call has a tool to point at the gateway; a call without tools costs one check. */
export function namesConfiguredServer(tools: unknown): boolean {
  return Array.isArray(tools) && tools.some(isLabelOnly);
}

/**
 * `/mcp` at the public URL: https, or http on loopback only (tests, a laptop), since the
 * grant travels in a header and a provider calls from outside.
 */
function callbackUrl(publicUrl: string | null, param: string): string {
  const url = publicUrl ? new URL(publicUrl) : null;
  if (!url || (url.protocol !== "https:" && !LOOPBACK.test(url.hostname)))
    throw badRequest(
      `${param}: naming a configured tool server needs the gateway's public https address: the provider calls the server through the gateway at <GW_PUBLIC_URL>/mcp, and the operator has ${url ? "set GW_PUBLIC_URL to a plain http address" : "not set GW_PUBLIC_URL"}. Give server_url for a server the provider may reach directly.`,
      { param },
    );
  return `${url.href.replace(/\/+$/, "")}/mcp`;
}

/** The tools `allowed_tools` names (a list, or `{tool_names}`); null for all. */
function allowedTools(value: unknown): string[] | null {
  const names = Array.isArray(value) ? value : (value as { tool_names?: unknown } | null)?.tool_names;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : null;
}

/** The call's label-only tools, each with the server it names, and where the provider reaches the gateway. */
export interface HostedTools {
  url: string;
  named: { index: number; server: { id: string; name: string }; tools: string[] | null }[];
  grants: ToolGrantTokens;
}

/** Before the call is planned: each label-only tool's server, or a 400 naming the tool. */
export async function resolveHostedTools(body: Json, identity: Identity, deps: HostedToolDeps | undefined): Promise<HostedTools> {
  const named: HostedTools["named"] = [];
  let url = "";
  for (const [index, t] of (body.tools as unknown[]).entries()) {
    if (!isLabelOnly(t)) continue;
    const tool = t as Json;
    const param = `tools[${index}].server_label`;
    url = callbackUrl(deps?.publicUrl ?? null, param);
    const server = deps ? await deps.servers.find(identity, tool.server_label as string) : null;
    if (!server)
      throw badRequest(
        `${param}: no tool server named "${String(tool.server_label).slice(0, 60)}" is configured for you (mcp.server.list names the organization's); give server_url for another server.`,
        { param },
      );
    if (tool.headers != null || tool.authorization != null)
      throw badRequest(`${param}: a configured tool server's credentials are the gateway's to send; leave out headers and authorization.`, {
        param,
      });
    named.push({ index, server, tools: allowedTools(tool.allowed_tools) });
  }
  // Resolved only when the call names a server, so deps are there.
  return { url, named, grants: (deps as HostedToolDeps).grants };
}

/**
 * One attempt's body with each named tool pointed at the gateway's `/mcp`, with a grant
 * for `call` (who makes it, and its request id, which the grant's audit rows name).
 */
export function pointAtGateway<B extends Json>(body: B, hosted: HostedTools, call: { identity: Identity; requestId: string }): B {
  const tools = [...(body.tools as unknown[])];
  for (const { index, server, tools: allowed } of hosted.named) {
    const grant = hosted.grants.issue(call.identity, server, allowed, call.requestId);
    tools[index] = { ...(tools[index] as Json), server_url: hosted.url, headers: { Authorization: `Bearer ${grant}` } };
  }
  return { ...body, tools };
}
