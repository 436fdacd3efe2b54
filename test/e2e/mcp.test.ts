/**
 * The MCP gateway end to end: the gateway in this process on a loopback port, the
 * reference server-everything and a poisoned test server behind it, driven with the
 * official SDK client as Claude Code or Cursor would connect.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { tempDataDir, removeDir } from "../support/gateway-process.ts";
import { type InProcessGateway, initOrgInProcess, startGatewayInProcess } from "../support/in-process.ts";
import { freePort } from "../support/servers.ts";
import { POISON, type RunningMcpServer, startEverythingServer, startPoisonedMcpServer } from "../support/mcp-servers.ts";

let gw: InProcessGateway;
let admin: string;
let dataDir: string;
let poisoned: RunningMcpServer;
let everything: { url: string; stop(): Promise<void> };
const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}

async function newKey(name: string, keyType: "live" | "test" = "live"): Promise<{ key: string; keyId: string; serviceAccountId: string }> {
  const r = await gw.op(admin, "org.service-account.create", { serviceAccountName: name, keyType });
  expect(r.status).toBe(200);
  return { key: r.body.data.apiKey.key, keyId: r.body.data.apiKey.id, serviceAccountId: r.body.data.serviceAccount.id };
}

const textOf = (result: unknown) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "") as string;

beforeAll(async () => {
  dataDir = tempDataDir();
  admin = (await initOrgInProcess(dataDir)).apiKey;
  gw = await startGatewayInProcess({ dataDir, env: { GW_LOG_LEVEL: "warn" } });
  poisoned = startPoisonedMcpServer();
  everything = await startEverythingServer();
  const created = await gw.op(admin, "mcp.server.create", {
    name: "wiki",
    url: poisoned.url,
    auth: { type: "headers", headers: { authorization: "Bearer upstream-secret-token-1234", "x-team": "platform" } },
  });
  expect(created.status).toBe(200);
  expect((await gw.op(admin, "mcp.server.create", { name: "everything", url: everything.url })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await gw?.stop();
  await poisoned?.stop();
  await everything?.stop();
  removeDir(dataDir);
});

describe("tools through the gateway", () => {
  test("tools are listed with their server's namespace, from both servers", async () => {
    const client = await connect(admin);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("wiki__weather");
    expect(names).toContain("wiki__read_page");
    expect(names).toContain("everything__echo");
    expect(names).toContain("everything__get-sum");
    expect(names.every((n) => n.startsWith("wiki__") || n.startsWith("everything__"))).toBe(true);
  });

  test("a call is forwarded with the server's stored credentials, which the agent never sees", async () => {
    const client = await connect(admin);
    const before = poisoned.received.length;
    const result = await client.callTool({ name: "wiki__weather", arguments: {} });
    expect(textOf(result)).toBe("Sunny, 21 degrees.");
    const sent = poisoned.received.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((h) => h.get("authorization") === "Bearer upstream-secret-token-1234" && h.get("x-team") === "platform")).toBe(true);
    const listed = await gw.op(admin, "mcp.server.list");
    expect(JSON.stringify(listed.body)).not.toContain("upstream-secret-token-1234");
    expect(listed.body.data.servers[0].auth).toEqual({ type: "headers", headerNames: ["authorization", "x-team"] });
  });

  test("a server with OAuth client credentials gets a token from its endpoint, and calls carry it", async () => {
    const tokens = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        const form = new URLSearchParams(await request.text());
        return form.get("client_secret") === "oauth-client-secret"
          ? Response.json({ access_token: "issued-access-token", expires_in: 3600 })
          : new Response("no", { status: 401 });
      },
    });
    try {
      const created = await gw.op(admin, "mcp.server.create", {
        name: "wikiauth",
        url: poisoned.url,
        auth: {
          type: "oauth",
          tokenUrl: `http://127.0.0.1:${tokens.port}/token`,
          clientId: "gateway",
          clientSecret: "oauth-client-secret",
        },
      });
      expect(created.status).toBe(200);
      const client = await connect(admin);
      const before = poisoned.received.length;
      expect(textOf(await client.callTool({ name: "wikiauth__weather", arguments: {} }))).toBe("Sunny, 21 degrees.");
      const sent = poisoned.received.slice(before).map((h) => h.get("authorization"));
      expect(sent).toContain("Bearer issued-access-token");
      await gw.op(admin, "mcp.server.delete", { id: created.body.data.server.id });
    } finally {
      await tokens.stop(true);
    }
  });

  test("a server that cannot be reached drops out of tools/list, and a call to it says so in the gateway's words", async () => {
    const port = await freePort();
    const created = await gw.op(admin, "mcp.server.create", { name: "down", url: `http://127.0.0.1:${port}/mcp` });
    const client = await connect(admin);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.some((n) => n.startsWith("down__"))).toBe(false);
    expect(names).toContain("wiki__weather");
    const err = (await client.callTool({ name: "down__anything", arguments: {} }).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("The tool server down could not be reached or did not answer.");
    await gw.op(admin, "mcp.server.delete", { id: created.body.data.server.id });
  });

  test("a long-running tool's progress is streamed to the agent before its result", async () => {
    const client = await connect(admin);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "everything__trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);
    expect(textOf(result)).toContain("completed");
  });

  test("a server's tools/list_changed reaches the agent, and the new tool is listed", async () => {
    const client = await connect(admin);
    await client.listTools();
    let told = false;
    const notified = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        told = true;
        resolve();
      }),
    );
    // A notification travels on the standalone streams (GET) each client opens after initializing; one sent before
    // they are open is lost, as the protocol allows, so the server announces again until the agent hears it.
    for (let n = 0; !told; n++) {
      await poisoned.addTool(`fresh_tool_${n}`);
      await Promise.race([notified, Bun.sleep(250)]);
    }
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("wiki__fresh_tool_0");
  });
});

describe("the mandatory policy on results and arguments", () => {
  test("an injected result is blocked by default: a tool error that says why, without the text", async () => {
    const client = await connect(admin);
    const result = (await client.callTool({ name: "wiki__read_page", arguments: {} })) as { isError?: boolean; _meta?: any };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("prompt-injection");
    expect(textOf(result)).toContain("wiki__read_page");
    expect(textOf(result)).not.toContain("system prompt");
    expect(result._meta["gateway/scan"].blocked).toBe(true);
    expect(result._meta["gateway/scan"].counts.injection).toBeGreaterThan(0);
  });

  test("a credential in a result is blocked by default", async () => {
    const client = await connect(admin);
    const result = (await client.callTool({ name: "wiki__get_config", arguments: {} })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("a credential");
    expect(textOf(result)).not.toContain(POISON.credential);
  });

  test("personal data in a result is redacted by default (the organization's piiAction)", async () => {
    const client = await connect(admin);
    const result = (await client.callTool({ name: "wiki__lookup_customer", arguments: {} })) as { _meta?: any };
    expect(textOf(result)).toBe("Customer: Jane Doe, e-mail [EMAIL_1].");
    expect(result._meta["gateway/scan"]).toMatchObject({ redacted: 1 });
  });

  test("with the server's policy set to flag and redact, the injection passes marked and the credential is replaced", async () => {
    const id = (await gw.op(admin, "mcp.server.list")).body.data.servers.find((s: any) => s.name === "wiki").id;
    const updated = await gw.op(admin, "mcp.server.update", { id, scan: { injection: "flag", secrets: "redact", pii: "flag" } });
    expect(updated.status).toBe(200);
    const client = await connect(admin);
    const page = (await client.callTool({ name: "wiki__read_page", arguments: {} })) as { isError?: boolean; _meta?: any };
    expect(page.isError).toBeUndefined();
    expect(textOf(page)).toContain(POISON.injection);
    expect(page._meta["gateway/scan"]).toMatchObject({ flagged: ["injection"] });
    const config = await client.callTool({ name: "wiki__get_config", arguments: {} });
    expect(textOf(config)).toBe("deploy token: [GITHUB_TOKEN_1]");
    const customer = (await client.callTool({ name: "wiki__lookup_customer", arguments: {} })) as { _meta?: any };
    expect(textOf(customer)).toContain(POISON.email);
    expect(customer._meta["gateway/scan"]).toMatchObject({ flagged: ["pii"] });
    await gw.op(admin, "mcp.server.update", { id, scan: {} });
  });

  test("the organization's own scan policy applies: with injection set to flag, the poisoned page passes marked", async () => {
    const set = (injection: "block" | "flag") => gw.op(admin, "user.preferences", { set: { security: { injection } } });
    expect((await set("flag")).status).toBe(200);
    try {
      const client = await connect(admin);
      const page = (await client.callTool({ name: "wiki__read_page", arguments: {} })) as { isError?: boolean; _meta?: any };
      expect(page.isError).toBeUndefined();
      expect(page._meta["gateway/scan"].flagged).toEqual(["injection"]);
    } finally {
      await set("block");
    }
  });

  test("arguments are scanned before they leave: a credential never reaches the server, personal data is redacted", async () => {
    const client = await connect(admin);
    const before = poisoned.calls.length;
    const refused = (await client.callTool({ name: "wiki__echo", arguments: { message: `use ${POISON.credential}` } })) as {
      isError?: boolean;
    };
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("arguments");
    expect(poisoned.calls.length).toBe(before);
    await client.callTool({ name: "wiki__echo", arguments: { message: `mail ${POISON.email}` } });
    expect(poisoned.calls.at(-1)).toEqual({ name: "echo", arguments: { message: "mail [EMAIL_1]" } });
  });

  test("a server's protocol error is relayed only when its message passes the scan", async () => {
    const client = await connect(admin);
    const err = (await client.callTool({ name: "wiki__fail_loudly", arguments: {} }).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("The tool server wiki refused the call (code -32602).");
    expect(err.message).not.toContain("system prompt");
  });

  test("every call is audited with server, tool, key, size, findings and duration, never its text", async () => {
    const page = await gw.op(admin, "org.audit-log.list", { limit: 200 });
    const rows = (page.body.data.entries as any[]).filter((e) => e.action === "mcp.tool.call");
    const blocked = rows.find((r) => r.target === "wiki__read_page" && r.details.outcome === "blocked");
    expect(blocked.details).toMatchObject({ server: "wiki", tool: "read_page", resultScan: "blocked" });
    expect(blocked.details.findings.result.injection).toBeGreaterThan(0);
    expect(typeof blocked.details.keyId).toBe("string");
    expect(blocked.details.resultBytes).toBeGreaterThan(0);
    expect(typeof blocked.details.durationMs).toBe("number");
    const text = JSON.stringify(rows);
    expect(text).not.toContain(POISON.injection);
    expect(text).not.toContain(POISON.email);
    expect(text).not.toContain(POISON.credential);
  });
});

describe("who may call what", () => {
  test("a key limited to some tools sees only those and is refused the rest", async () => {
    const limited = await newKey("weather-bot");
    const set = await gw.op(admin, "mcp.access.set", {
      subject: limited.serviceAccountId,
      servers: ["wiki"],
      tools: ["wiki__weather", "wiki__echo"],
    });
    expect(set.status).toBe(200);
    const client = await connect(limited.key);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["wiki__echo", "wiki__weather"]);
    expect(textOf(await client.callTool({ name: "wiki__weather", arguments: {} }))).toBe("Sunny, 21 degrees.");
    const refused = await client.callTool({ name: "everything__echo", arguments: { message: "hi" } }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain("Unknown tool: everything__echo");
  });

  test("a session belongs to the key that opened it", async () => {
    const owner = await connect(admin);
    await owner.listTools();
    const sessionId = (owner.transport as StreamableHTTPClientTransport).sessionId as string;
    const other = await newKey("other-agent");
    const res = await fetch(`${gw.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${other.key}`,
        "mcp-session-id": sessionId,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
  });

  test("DELETE ends a session: its id is then unknown", async () => {
    const client = await connect(admin);
    await client.listTools();
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    const res = await fetch(`${gw.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${admin}`,
        "mcp-session-id": sessionId,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
  });

  test("without a key, /mcp is refused with 401 and counted against the address", async () => {
    const res = await fetch(`${gw.url}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
  });

  test("each request to /mcp is charged to the key's rate-limit bucket", async () => {
    const { key } = await newKey("counted-agent");
    const initialize = () =>
      fetch(`${gw.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      });
    const first = await initialize();
    const second = await initialize();
    expect(first.status).toBe(200);
    expect(first.headers.get("mcp-session-id")).not.toBeNull();
    await first.body?.cancel();
    await second.body?.cancel();
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
  });

  test("a sandbox key gets the simulated tool server and never reaches a real one", async () => {
    const sandbox = await newKey("sandbox-agent", "test");
    const before = { poisoned: poisoned.received.length };
    const client = await connect(sandbox.key);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual(["sandbox__add", "sandbox__echo", "sandbox__get_time"]);
    expect(textOf(await client.callTool({ name: "sandbox__add", arguments: { a: 2, b: 3 } }))).toBe("5");
    const real = await client.callTool({ name: "wiki__weather", arguments: {} }).catch((e: Error) => e);
    expect(real).toBeInstanceOf(Error);
    expect(poisoned.received.length).toBe(before.poisoned);
    // Sandbox keys may not configure servers either.
    expect((await gw.op(sandbox.key, "mcp.server.create", { name: "x", url: poisoned.url })).status).toBe(403);
  });

  test("tool calls are counted in /metrics with bounded labels", async () => {
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    expect(text).toMatch(/gateway_mcp_tool_calls_total\{outcome="ok"\} \d+/);
    expect(text).toMatch(/gateway_mcp_tool_calls_total\{outcome="blocked"\} \d+/);
    expect(text).toMatch(/gateway_mcp_scan_findings_total\{direction="result",category="injection"\} \d+/);
    expect(text).not.toContain("wiki__");
  });
});
