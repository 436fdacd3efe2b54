/** MCP servers and per-key access through the one SQL store, on SQLite and Postgres alike. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { McpServerRecord } from "../../src/domain/mcp-records.ts";
import { PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.ts";
import type { Store } from "../../src/store/store.ts";
import { postgresPerFile } from "../support/postgres-per-file.ts";

const server = (id: string, orgId: string, name: string, at: number): McpServerRecord => ({
  id,
  orgId,
  name,
  url: `https://${name}.example.com/mcp`,
  country: null,
  auth: { type: "headers", headerNames: ["authorization"] },
  secretCiphertext: "sealed",
  scan: { injection: "flag" },
  createdAt: at,
  updatedAt: at,
});

function contract(name: string, open: () => Promise<Store>) {
  describe(`${name}: MCP store`, () => {
    test("servers are created, listed oldest first per organization, updated and deleted", async () => {
      const store = await open();
      await store.createMcpServer(server("mcp_1", "org_a", "wiki", 1));
      await store.createMcpServer(server("mcp_2", "org_a", "github", 2));
      await store.createMcpServer(server("mcp_3", "org_b", "wiki", 3));
      expect((await store.listMcpServers("org_a")).map((s) => s.name)).toEqual(["wiki", "github"]);
      expect(await store.getMcpServer("mcp_1")).toEqual(server("mcp_1", "org_a", "wiki", 1));
      await store.updateMcpServer({
        ...server("mcp_1", "org_a", "docs", 1),
        country: "US",
        secretCiphertext: null,
        scan: {},
        updatedAt: 9,
      });
      expect(await store.getMcpServer("mcp_1")).toMatchObject({
        name: "docs",
        country: "US",
        secretCiphertext: null,
        scan: {},
        updatedAt: 9,
      });
      expect(await store.deleteMcpServer("mcp_2")).toBe(true);
      expect(await store.deleteMcpServer("mcp_2")).toBe(false);
      expect(await store.getMcpServer("mcp_2")).toBeNull();
      await store.close();
    });

    test("a name is unique within an organization", async () => {
      const store = await open();
      await store.createMcpServer(server("mcp_1", "org_a", "wiki", 1));
      await expect(store.createMcpServer(server("mcp_2", "org_a", "wiki", 2))).rejects.toThrow();
      await store.close();
    });

    test("access lists are set, replaced, read by subject and cleared", async () => {
      const store = await open();
      await store.setMcpKeyAccess({ subjectId: "sa_1", orgId: "org_a", servers: ["*"], tools: ["wiki__*"], updatedAt: 1 });
      await store.setMcpKeyAccess({ subjectId: "key_1", orgId: "org_a", servers: ["wiki"], tools: ["wiki__read"], updatedAt: 2 });
      await store.setMcpKeyAccess({ subjectId: "sa_1", orgId: "org_a", servers: ["wiki"], tools: ["*"], updatedAt: 3 });
      const both = await store.getMcpKeyAccess(["key_1", "sa_1", "sa_none"]);
      expect(both.map((a) => a.subjectId).sort()).toEqual(["key_1", "sa_1"]);
      expect(both.find((a) => a.subjectId === "sa_1")).toEqual({
        subjectId: "sa_1",
        orgId: "org_a",
        servers: ["wiki"],
        tools: ["*"],
        updatedAt: 3,
      });
      expect(await store.getMcpKeyAccess([])).toEqual([]);
      expect((await store.listMcpKeyAccess("org_a")).length).toBe(2);
      expect(await store.deleteMcpKeyAccess("key_1")).toBe(true);
      expect((await store.listMcpKeyAccess("org_a")).map((a) => a.subjectId)).toEqual(["sa_1"]);
      await store.close();
    });
  });
}

async function migrated(store: Store): Promise<Store> {
  await store.migrate();
  return store;
}

contract("SQLite", () => migrated(new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-mcp-store-")), "gateway.db"))));

const pg = postgresPerFile();
contract("Postgres", async () => migrated(new PostgresStore(await pg.createDatabase(), { max: 2 })));
