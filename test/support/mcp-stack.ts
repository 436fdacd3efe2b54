/**
 * The MCP gateway's end-to-end setup, shared by a file and started once: the gateway in
 * this process on a loopback port with an organization, the poisoned test server
 * configured as `wiki` (with a credential header), optionally server-everything as
 * `everything`, and official SDK clients connected to `/mcp` with a given key.
 */
import { expect } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { removeDir, tempDataDir } from "./gateway-process.ts";
import { type InProcessGateway, initOrgInProcess, startGatewayInProcess } from "./in-process.ts";
import { type RunningMcpServer, startEverythingServer, startPoisonedMcpServer } from "./mcp-servers.ts";
import { freePort } from "./servers.ts";

/** The credential header the gateway stores for `wiki` and sends it. */
export const WIKI_AUTHORIZATION = "Bearer upstream-secret-token-1234";

export interface McpStack {
  gw: InProcessGateway;
  /** The organization's admin key. */
  admin: string;
  orgId: string;
  poisoned: RunningMcpServer;
  everything: { url: string; stop(): Promise<void> } | null;
  /** An SDK client connected to the gateway's `/mcp` with `key` (closed by `stop`). */
  connect(key: string): Promise<Client>;
  /** A new service account with one key. */
  newKey(name: string, keyType?: "live" | "test"): Promise<{ key: string; keyId: string; serviceAccountId: string }>;
  stop(): Promise<void>;
}

/** The first text part of a tool result. */
export const textOf = (result: unknown) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "") as string;

/**
 * `publicUrl`: GW_PUBLIC_URL set to the gateway's own loopback address, for providers that call back into `/mcp`;
 * `env`: further settings (GW_LOG_LEVEL is warn unless given).
 */
export async function startMcpStack(opts: { everything: boolean; publicUrl?: boolean; env?: Record<string, string> }): Promise<McpStack> {
  const dataDir = tempDataDir();
  const { apiKey: admin, orgId } = await initOrgInProcess(dataDir);
  const port = opts.publicUrl ? await freePort() : undefined;
  const env: Record<string, string> = {
    GW_LOG_LEVEL: "warn",
    ...(port ? { GW_PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...opts.env,
  };
  const gw = await startGatewayInProcess({ dataDir, env, port });
  const poisoned = startPoisonedMcpServer();
  const everything = opts.everything ? await startEverythingServer() : null;
  const created = await gw.op(admin, "mcp.server.create", {
    name: "wiki",
    url: poisoned.url,
    auth: { type: "headers", headers: { authorization: WIKI_AUTHORIZATION, "x-team": "platform" } },
  });
  expect(created.status).toBe(200);
  if (everything) expect((await gw.op(admin, "mcp.server.create", { name: "everything", url: everything.url })).status).toBe(200);
  const clients: Client[] = [];
  return {
    gw,
    admin,
    orgId,
    poisoned,
    everything,
    async connect(key) {
      const client = new Client({ name: "test-agent", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
      );
      clients.push(client);
      return client;
    },
    async newKey(name, keyType = "live") {
      const r = await gw.op(admin, "org.service-account.create", { serviceAccountName: name, keyType });
      expect(r.status).toBe(200);
      return { key: r.body.data.apiKey.key, keyId: r.body.data.apiKey.id, serviceAccountId: r.body.data.serviceAccount.id };
    },
    async stop() {
      for (const c of clients) await c.close().catch(() => {});
      await gw.stop();
      await poisoned.stop();
      await everything?.stop();
      removeDir(dataDir);
    },
  };
}

/** The headers an agent sends to `/mcp` with `key`, before it has a session. */
export const rawMcpHeaders = (key: string): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
});

/**
 * A session opened at `gatewayUrl`'s `/mcp` with plain requests rather than the SDK, so a
 * test can send what the SDK never would (a batch) or hang up mid-call: the headers of
 * every later request. `initialized`: the client's `notifications/initialized` sent too.
 */
export async function openRawMcpSession(gatewayUrl: string, key: string, opts: { initialized: boolean }): Promise<Record<string, string>> {
  const headers = rawMcpHeaders(key);
  const init = await fetch(`${gatewayUrl}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  expect(init.status).toBe(200);
  await init.body?.cancel();
  const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id") as string, "mcp-protocol-version": "2025-06-18" };
  if (opts.initialized) {
    const initialized = await fetch(`${gatewayUrl}/mcp`, {
      method: "POST",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
  }
  return session;
}
