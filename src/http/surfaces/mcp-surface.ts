/**
 * `POST|GET|DELETE /mcp`: the MCP gateway's Streamable HTTP endpoint. Admission (the
 * caller's gateway key as a bearer token, or a tool grant issued for a model's hosted
 * `mcp` tool; its rate limit) has run; the request goes to the caller's session with
 * the caller, and any grant, attached. Nothing here touches the model path.
 */
import { actorOf } from "../../domain/identity.ts";
import type { McpGateway } from "../../mcp/mcp-gateway.ts";
import type { AdmittedScope } from "../request-scope.ts";
import { userAgentOf } from "../user-agent.ts";

export function mcpHandler(gateway: McpGateway) {
  return (scope: AdmittedScope): Promise<Response> =>
    gateway.handle(
      scope.request,
      {
        identity: scope.identity,
        actor: actorOf(scope.identity, scope.ip, userAgentOf(scope.request)),
        requestId: scope.requestId,
        trace: scope.trace,
        ...(scope.grant ? { grant: scope.grant } : {}),
      },
      scope.server,
    );
}
