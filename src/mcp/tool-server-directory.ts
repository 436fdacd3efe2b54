/**
 * The configured tool servers a caller may name in a Responses `mcp` tool
 * (pipeline/hosted-mcp-tools.ts): the organization's, by name, less those the
 * geography policy refuses and those the caller's allow lists leave out, exactly as
 * for its agent sessions. A sandbox key may name one too: its grant leads to the
 * simulated tool server at `/mcp`, never to the real one.
 */
import type { Identity } from "../domain/identity.ts";
import type { ToolServerDirectory } from "../pipeline/hosted-mcp-tools.ts";
import type { McpStore } from "../store/mcp-store.ts";
import { geographyAllows } from "./mcp-services.ts";
import { allowanceFor, allowsServer } from "./tool-access.ts";

export function toolServerDirectory(store: McpStore): ToolServerDirectory {
  return {
    async find(identity: Identity, name: string) {
      const server = (await store.listMcpServers(identity.organization.id)).find((s) => s.name === name);
      if (!server || !geographyAllows(server) || !allowsServer(await allowanceFor(store, identity), server.name)) return null;
      return { id: server.id, name: server.name };
    },
  };
}
