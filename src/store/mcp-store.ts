/** The part of the store the MCP gateway uses: tool servers and per-key tool access (docs/mcp.md). */
import type { McpKeyAccess, McpServerRecord } from "../domain/mcp-records.ts";

export interface McpStore {
  createMcpServer(rec: McpServerRecord): Promise<void>;
  getMcpServer(id: string): Promise<McpServerRecord | null>;
  /** The organization's servers, oldest first. */
  listMcpServers(orgId: string): Promise<McpServerRecord[]>;
  updateMcpServer(rec: McpServerRecord): Promise<void>;
  deleteMcpServer(id: string): Promise<boolean>;
  /** Sets (replaces) a subject's allow lists. */
  setMcpKeyAccess(access: McpKeyAccess): Promise<void>;
  /** The allow lists of these subjects (a key and its service account) that exist. */
  getMcpKeyAccess(subjectIds: string[]): Promise<McpKeyAccess[]>;
  listMcpKeyAccess(orgId: string): Promise<McpKeyAccess[]>;
  deleteMcpKeyAccess(subjectId: string): Promise<boolean>;
}
