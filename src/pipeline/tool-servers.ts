/**
 * Tool servers a call names for the provider to reach (a Responses `mcp` tool's
 * `server_url`, a messages call's `mcp_servers[].url`) pass the egress policy too: a
 * provider inside the operator's network (self-hosted, or allowed private) would
 * otherwise connect wherever a caller points it. Refused with a 400 naming the field
 * and, for a private address, the setting that allows it.
 */
import { checkEgressUrl } from "../lib/egress/egress-policy.ts";
import { badRequest } from "../lib/errors.ts";

type Json = Record<string, unknown>;

/** The server URLs a call names, with the parameter each sits at. */
export function toolServerUrls(body: Json): { param: string; url: string }[] {
  const out: { param: string; url: string }[] = [];
  if (Array.isArray(body.tools))
    body.tools.forEach((t, i) => {
      const tool = t as Json | null;
      if (tool?.type === "mcp" && typeof tool.server_url === "string") out.push({ param: `tools[${i}].server_url`, url: tool.server_url });
    });
  if (Array.isArray(body.mcp_servers))
    body.mcp_servers.forEach((s, i) => {
      const server = s as Json | null;
      if (typeof server?.url === "string") out.push({ param: `mcp_servers[${i}].url`, url: server.url });
    });
  return out;
}

export async function refuseRefusedToolServers(body: Json): Promise<void> {
  for (const { param, url } of toolServerUrls(body)) {
    const refused = await checkEgressUrl(url);
    if (refused) throw badRequest(`${param}: this tool server is not allowed: ${refused}`, { param });
  }
}
