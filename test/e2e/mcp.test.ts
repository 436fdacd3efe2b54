/**
 * The MCP gateway end to end: the gateway in this process on a loopback port, the
 * reference server-everything and a poisoned test server behind it, driven with the
 * official SDK client as Claude Code or Cursor would connect: tools, streaming, changes,
 * sessions and who may call what. The scan policy's cases are in mcp-policy.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { type McpStack, startMcpStack, textOf, WIKI_AUTHORIZATION } from "../support/mcp-stack.ts";
import { freePort } from "../support/servers.ts";

let stack: McpStack;

beforeAll(async () => {
  stack = await startMcpStack({ everything: true });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe("tools through the gateway", () => {
  test("tools are listed with their server's namespace, from both servers", async () => {
    const client = await stack.connect(stack.admin);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("wiki__weather");
    expect(names).toContain("wiki__read_page");
    expect(names).toContain("everything__echo");
    expect(names).toContain("everything__get-sum");
    expect(names.every((n) => n.startsWith("wiki__") || n.startsWith("everything__"))).toBe(true);
  });

  test("a call is forwarded with the server's stored credentials, which the agent never sees", async () => {
    const client = await stack.connect(stack.admin);
    const before = stack.poisoned.received.length;
    const result = await client.callTool({ name: "wiki__weather", arguments: {} });
    expect(textOf(result)).toBe("Sunny, 21 degrees.");
    const sent = stack.poisoned.received.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((h) => h.get("authorization") === WIKI_AUTHORIZATION && h.get("x-team") === "platform")).toBe(true);
    const listed = await stack.gw.op(stack.admin, "mcp.server.list");
    expect(JSON.stringify(listed.body)).not.toContain(WIKI_AUTHORIZATION.replace("Bearer ", ""));
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
      const created = await stack.gw.op(stack.admin, "mcp.server.create", {
        name: "wikiauth",
        url: stack.poisoned.url,
        auth: {
          type: "oauth",
          tokenUrl: `http://127.0.0.1:${tokens.port}/token`,
          clientId: "gateway",
          clientSecret: "oauth-client-secret",
        },
      });
      expect(created.status).toBe(200);
      const client = await stack.connect(stack.admin);
      const before = stack.poisoned.received.length;
      expect(textOf(await client.callTool({ name: "wikiauth__weather", arguments: {} }))).toBe("Sunny, 21 degrees.");
      const sent = stack.poisoned.received.slice(before).map((h) => h.get("authorization"));
      expect(sent).toContain("Bearer issued-access-token");
      await stack.gw.op(stack.admin, "mcp.server.delete", { id: created.body.data.server.id });
    } finally {
      await tokens.stop(true);
    }
  });

  test("a server that cannot be reached drops out of tools/list, and a call to it says so in the gateway's words", async () => {
    const port = await freePort();
    const created = await stack.gw.op(stack.admin, "mcp.server.create", { name: "down", url: `http://127.0.0.1:${port}/mcp` });
    const client = await stack.connect(stack.admin);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.some((n) => n.startsWith("down__"))).toBe(false);
    expect(names).toContain("wiki__weather");
    const err = (await client.callTool({ name: "down__anything", arguments: {} }).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("The tool server down could not be reached or did not answer.");
    await stack.gw.op(stack.admin, "mcp.server.delete", { id: created.body.data.server.id });
  });

  test("a long-running tool's progress is streamed to the agent before its result", async () => {
    const client = await stack.connect(stack.admin);
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
    const client = await stack.connect(stack.admin);
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
      await stack.poisoned.addTool(`fresh_tool_${n}`);
      await Promise.race([notified, Bun.sleep(250)]);
    }
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("wiki__fresh_tool_0");
  });
});

describe("who may call what", () => {
  test("a key limited to some tools sees only those and is refused the rest", async () => {
    const limited = await stack.newKey("weather-bot");
    const set = await stack.gw.op(stack.admin, "mcp.access.set", {
      subject: limited.serviceAccountId,
      servers: ["wiki"],
      tools: ["wiki__weather", "wiki__echo"],
    });
    expect(set.status).toBe(200);
    const client = await stack.connect(limited.key);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["wiki__echo", "wiki__weather"]);
    expect(textOf(await client.callTool({ name: "wiki__weather", arguments: {} }))).toBe("Sunny, 21 degrees.");
    const refused = await client.callTool({ name: "everything__echo", arguments: { message: "hi" } }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain("Unknown tool: everything__echo");
  });

  test("a session belongs to the key that opened it", async () => {
    const owner = await stack.connect(stack.admin);
    await owner.listTools();
    const sessionId = (owner.transport as StreamableHTTPClientTransport).sessionId as string;
    const other = await stack.newKey("other-agent");
    const res = await fetch(`${stack.gw.url}/mcp`, {
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
    const client = await stack.connect(stack.admin);
    await client.listTools();
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    const res = await fetch(`${stack.gw.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${stack.admin}`,
        "mcp-session-id": sessionId,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
  });

  test("without a key, /mcp is refused with 401 and counted against the address", async () => {
    const res = await fetch(`${stack.gw.url}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
  });

  test("each request to /mcp is charged to the key's rate-limit bucket", async () => {
    const { key } = await stack.newKey("counted-agent");
    const initialize = () =>
      fetch(`${stack.gw.url}/mcp`, {
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
    const sandbox = await stack.newKey("sandbox-agent", "test");
    const before = { poisoned: stack.poisoned.received.length };
    const client = await stack.connect(sandbox.key);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual(["sandbox__add", "sandbox__echo", "sandbox__get_time"]);
    expect(textOf(await client.callTool({ name: "sandbox__add", arguments: { a: 2, b: 3 } }))).toBe("5");
    const real = await client.callTool({ name: "wiki__weather", arguments: {} }).catch((e: Error) => e);
    expect(real).toBeInstanceOf(Error);
    expect(stack.poisoned.received.length).toBe(before.poisoned);
    // Sandbox keys may not configure servers either.
    expect((await stack.gw.op(sandbox.key, "mcp.server.create", { name: "x", url: stack.poisoned.url })).status).toBe(403);
  });

  test("without GW_PUBLIC_URL, a Responses mcp tool naming a configured server is a 400 naming the setting", async () => {
    const res = await fetch(`${stack.gw.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.admin}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", input: "hi", tools: [{ type: "mcp", server_label: "wiki", require_approval: "never" }] }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; param: string; type: string } };
    expect(body.error).toMatchObject({ param: "tools[0].server_label", type: "invalid_request_error" });
    expect(body.error.message).toContain("not set GW_PUBLIC_URL");
  });
});
