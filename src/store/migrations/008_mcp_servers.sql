-- The MCP gateway (docs/mcp.md): the organization's tool servers, their credentials sealed
-- like provider keys, and the allow lists that limit a service account or key to some
-- servers and tools (no row: all of them).
CREATE TABLE mcp_servers (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  country TEXT,
  auth TEXT NOT NULL,
  secret_ciphertext TEXT,
  scan TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX mcp_servers_org_name ON mcp_servers(org_id, name);
CREATE TABLE mcp_key_access (
  subject_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  servers TEXT NOT NULL,
  tools TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX mcp_key_access_org ON mcp_key_access(org_id);
