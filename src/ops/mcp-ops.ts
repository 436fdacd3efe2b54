/** `mcp.*` operations: the organization's MCP tool servers and per-key tool access (docs/mcp.md). */
import { type TObject, Type } from "@sinclair/typebox";
import { setKeyAccess } from "../mcp/key-access-config.ts";
import type { McpKeyAccess, McpServerRecord } from "../domain/mcp-records.ts";
import { createMcpServer, deleteMcpServer, updateMcpServer } from "../mcp/mcp-server-config.ts";
import { PlainName } from "../schemas/names.ts";
import { iso } from "./present.ts";
import { defineOperation } from "./registry.ts";

const strict = <T extends TObject>(o: T) => ({ ...o, additionalProperties: false }) as T;
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Secret = Type.String({ minLength: 1, maxLength: 8192 });
/**
 * The tool namespace: no `__` (the separator) and no `_` at either end, so `<server>__<tool>`
 * splits one way only (`a_` and tool `b` would read as server `a`, tool `_b`).
 */
const ServerName = Type.String({ pattern: "^(?!.*__)[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38}[A-Za-z0-9-])?$" });
const Pattern = PlainName(200);

const Auth = Type.Union([
  strict(Type.Object({ type: Type.Literal("none") })),
  strict(
    Type.Object({
      type: Type.Literal("headers"),
      headers: Type.Record(Type.String(), Type.String({ maxLength: 8192 }), { minProperties: 1, maxProperties: 20 }),
    }),
  ),
  strict(
    Type.Object({
      type: Type.Literal("oauth"),
      tokenUrl: Type.String({ minLength: 1, maxLength: 2000 }),
      clientId: Type.String({ minLength: 1, maxLength: 500 }),
      clientSecret: Secret,
      scope: Type.Optional(Type.String({ maxLength: 1000 })),
    }),
  ),
]);

const Scan = strict(
  Type.Object({
    injection: Type.Optional(Type.Union([Type.Literal("block"), Type.Literal("flag")])),
    secrets: Type.Optional(Type.Union([Type.Literal("block"), Type.Literal("redact")])),
    pii: Type.Optional(Type.Union([Type.Literal("redact"), Type.Literal("block"), Type.Literal("flag")])),
  }),
);

const fields = {
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  country: Type.Optional(Type.Union([Type.String({ pattern: "^[A-Za-z]{2}$" }), Type.Null()])),
  auth: Type.Optional(Auth),
  scan: Type.Optional(Scan),
};

/** A server as operations show it: header names and the OAuth client id, never a secret. */
export function presentMcpServer(s: McpServerRecord) {
  return {
    id: s.id,
    name: s.name,
    url: s.url,
    country: s.country,
    auth: s.auth,
    scan: s.scan,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

const presentAccess = (a: McpKeyAccess) => ({ subject: a.subjectId, servers: a.servers, tools: a.tools, updatedAt: iso(a.updatedAt) });

export const mcpServerCreate = defineOperation({
  id: "mcp.server.create",
  access: "admin",
  summary: "Adds an MCP tool server for the organization (credentials sealed; the URL must pass the egress policy).",
  params: strict(Type.Object({ name: ServerName, ...fields })),
  async run({ identity, actor, deps }, p) {
    return { server: presentMcpServer(await createMcpServer(deps, identity, actor, p)) };
  },
});

export const mcpServerList = defineOperation({
  id: "mcp.server.list",
  access: "admin-read",
  summary: "The organization's MCP tool servers (never their credentials).",
  params: Type.Object({}),
  async run({ identity, deps }) {
    return { servers: (await deps.store.listMcpServers(identity.organization.id)).map(presentMcpServer) };
  },
});

export const mcpServerUpdate = defineOperation({
  id: "mcp.server.update",
  access: "admin",
  summary: "Changes an MCP tool server's name, address, country, credentials or scan overrides.",
  params: strict(Type.Object({ id: Id, name: Type.Optional(ServerName), ...fields, url: Type.Optional(fields.url) })),
  async run({ identity, actor, deps }, { id, ...patch }) {
    return { server: presentMcpServer(await updateMcpServer(deps, identity, actor, id, patch)) };
  },
});

export const mcpServerDelete = defineOperation({
  id: "mcp.server.delete",
  access: "admin",
  summary: "Removes an MCP tool server and its sealed credentials.",
  params: strict(Type.Object({ id: Id })),
  async run({ identity, actor, deps }, { id }) {
    await deleteMcpServer(deps, identity, actor, id);
    return { id, deleted: true };
  },
});

export const mcpAccessSet = defineOperation({
  id: "mcp.access.set",
  access: "admin",
  summary: "Limits a service account or key to some MCP servers and tools (`*` wildcards); `clear: true` allows all again.",
  params: strict(
    Type.Object({
      subject: Id,
      servers: Type.Optional(Type.Array(Pattern, { maxItems: 200 })),
      tools: Type.Optional(Type.Array(Pattern, { maxItems: 1000 })),
      clear: Type.Optional(Type.Boolean()),
    }),
  ),
  async run({ identity, actor, deps }, p) {
    const lists = p.clear ? null : { servers: p.servers ?? ["*"], tools: p.tools ?? ["*"] };
    const access = await setKeyAccess(deps, identity, actor, p.subject, lists);
    return { access: access ? presentAccess(access) : null };
  },
});

export const mcpAccessList = defineOperation({
  id: "mcp.access.list",
  access: "admin-read",
  summary: "The MCP allow lists set on the organization's service accounts and keys.",
  params: Type.Object({}),
  async run({ identity, deps }) {
    return { access: (await deps.store.listMcpKeyAccess(identity.organization.id)).map(presentAccess) };
  },
});

export const mcpOperations = [mcpServerCreate, mcpServerList, mcpServerUpdate, mcpServerDelete, mcpAccessSet, mcpAccessList];
