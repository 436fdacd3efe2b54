/** MCP tool servers and per-key tool access, over usage (usage-sql.ts). */
import type { McpKeyAccess, McpServerRecord } from "../../domain/mcp-records.ts";
import type { McpStore } from "../mcp-store.ts";
import type { Row } from "./rows.ts";
import { UsageSql } from "./usage-sql.ts";

const toServer = (r: Row): McpServerRecord => ({
  id: String(r.id),
  orgId: String(r.org_id),
  name: String(r.name),
  url: String(r.url),
  country: r.country === null || r.country === undefined ? null : String(r.country),
  auth: JSON.parse(String(r.auth)),
  secretCiphertext: r.secret_ciphertext === null || r.secret_ciphertext === undefined ? null : String(r.secret_ciphertext),
  scan: JSON.parse(String(r.scan)),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const toAccess = (r: Row): McpKeyAccess => ({
  subjectId: String(r.subject_id),
  orgId: String(r.org_id),
  servers: JSON.parse(String(r.servers)),
  tools: JSON.parse(String(r.tools)),
  updatedAt: Number(r.updated_at),
});

export class McpSql extends UsageSql implements McpStore {
  async createMcpServer(s: McpServerRecord): Promise<void> {
    await this.run(
      `INSERT INTO mcp_servers (id, org_id, name, url, country, auth, secret_ciphertext, scan, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      s.id,
      s.orgId,
      s.name,
      s.url,
      s.country,
      JSON.stringify(s.auth),
      s.secretCiphertext,
      JSON.stringify(s.scan),
      s.createdAt,
      s.updatedAt,
    );
  }

  async getMcpServer(id: string): Promise<McpServerRecord | null> {
    const r = await this.one("SELECT * FROM mcp_servers WHERE id = $1", id);
    return r ? toServer(r) : null;
  }

  async listMcpServers(orgId: string): Promise<McpServerRecord[]> {
    return (await this.all("SELECT * FROM mcp_servers WHERE org_id = $1 ORDER BY created_at, id", orgId)).map(toServer);
  }

  async updateMcpServer(s: McpServerRecord): Promise<void> {
    await this.run(
      "UPDATE mcp_servers SET name = $1, url = $2, country = $3, auth = $4, secret_ciphertext = $5, scan = $6, updated_at = $7 WHERE id = $8",
      s.name,
      s.url,
      s.country,
      JSON.stringify(s.auth),
      s.secretCiphertext,
      JSON.stringify(s.scan),
      s.updatedAt,
      s.id,
    );
  }

  async deleteMcpServer(id: string): Promise<boolean> {
    return (await this.run("DELETE FROM mcp_servers WHERE id = $1", id)) > 0;
  }

  async setMcpKeyAccess(a: McpKeyAccess): Promise<void> {
    await this.run(
      `INSERT INTO mcp_key_access (subject_id, org_id, servers, tools, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (subject_id) DO UPDATE SET servers = excluded.servers, tools = excluded.tools, updated_at = excluded.updated_at`,
      a.subjectId,
      a.orgId,
      JSON.stringify(a.servers),
      JSON.stringify(a.tools),
      a.updatedAt,
    );
  }

  async getMcpKeyAccess(subjectIds: string[]): Promise<McpKeyAccess[]> {
    if (subjectIds.length === 0) return [];
    const list = subjectIds.map((_, i) => `$${i + 1}`).join(", ");
    return (await this.all(`SELECT * FROM mcp_key_access WHERE subject_id IN (${list})`, ...subjectIds)).map(toAccess);
  }

  async listMcpKeyAccess(orgId: string): Promise<McpKeyAccess[]> {
    return (await this.all("SELECT * FROM mcp_key_access WHERE org_id = $1 ORDER BY subject_id", orgId)).map(toAccess);
  }

  async deleteMcpKeyAccess(subjectId: string): Promise<boolean> {
    return (await this.run("DELETE FROM mcp_key_access WHERE subject_id = $1", subjectId)) > 0;
  }
}
