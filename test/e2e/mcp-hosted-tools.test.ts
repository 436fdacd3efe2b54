/**
 * Responses `mcp` tools naming a configured tool server by `server_label`, end to end:
 * the official openai client calls the gateway, which points the provider (the mock,
 * acting as OpenAI does with an `mcp` tool) at its own `/mcp` with a tool grant; the
 * mock connects with the MCP SDK client, lists and calls a tool, and the call meets the
 * same policy as an agent's. The server's stored credential never reaches the provider.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import type { RunningMock } from "../support/gateway-process.ts";
import { startMockInProcess } from "../support/in-process.ts";
import { type McpStack, startMcpStack, WIKI_AUTHORIZATION } from "../support/mcp-stack.ts";
import { POISON } from "../support/mcp-servers.ts";
import { expectConforms } from "../support/openai-schemas.ts";
import { mintToolGrant } from "../support/tool-grants.ts";

let stack: McpStack;
let mock: RunningMock;
let openai: OpenAI;
const WIKI_SECRET = WIKI_AUTHORIZATION.replace("Bearer ", "");

beforeAll(async () => {
  stack = await startMcpStack({ everything: false, publicUrl: true, env: { GW_LOG_LEVEL: "info" } });
  mock = startMockInProcess();
  const created = await stack.gw.op(stack.admin, "provider.create", {
    provider: "openai",
    apiKey: "sk-openai-test-123456",
    baseUrl: `${mock.url}/v1`,
    scope: "organization",
  });
  expect(created.status).toBe(200);
  openai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.admin, maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  await stack?.stop();
});

const wikiTool = (extra: Record<string, unknown> = {}) =>
  ({ type: "mcp", server_label: "wiki", require_approval: "never", ...extra }) as never;

/** The output items of a whole Responses answer, by type. */
const items = (r: { output: unknown[] }, type: string) => (r.output as { type: string }[]).filter((o) => o.type === type) as any[];

/** The grant the provider was given in the last Responses call it received. */
async function lastGrant(): Promise<string> {
  const seen = (await mock.requests()).findLast((r) => r.path === "/v1/responses")!;
  const auth = (seen.body as any).tools[0].headers.Authorization as string;
  return auth.replace("Bearer ", "");
}

const serverId = async () =>
  ((await stack.gw.op(stack.admin, "mcp.server.list")).body.data.servers as { id: string; name: string }[]).find((s) => s.name === "wiki")!
    .id;

describe("a configured server named by server_label", () => {
  test("is reached through the gateway with its stored credential, which the provider never receives", async () => {
    const before = stack.poisoned.received.length;
    const r = await openai.responses.create({ model: "gpt-4o", input: "What is the weather today?", tools: [wikiTool()] });
    expectConforms("Response", r);

    const listed = items(r, "mcp_list_tools")[0];
    expect(listed.server_label).toBe("wiki");
    // The provider sees the server's tools under their own names, as on the server itself.
    expect(listed.tools.map((t: { name: string }) => t.name)).toContain("weather");
    const call = items(r, "mcp_call")[0];
    expect(call).toMatchObject({ server_label: "wiki", name: "weather", output: "Sunny, 21 degrees.", error: null });
    expect(r.output_text).toContain("Sunny, 21 degrees.");

    // The upstream was called with its stored credential, by the gateway.
    const sent = stack.poisoned.received.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((h) => h.get("authorization") === WIKI_AUTHORIZATION)).toBe(true);

    // The provider got the gateway's /mcp and a grant, never the server's address or credential.
    const seen = (await mock.requests()).filter((q) => q.path === "/v1/responses").at(-1)!;
    const tool = (seen.body as any).tools[0];
    expect(tool.server_url).toBe(`${stack.gw.url}/mcp`);
    expect(tool.headers.Authorization).toMatch(/^Bearer gw_mcpgrant_/);
    const everything = JSON.stringify(await mock.requests());
    expect(everything).not.toContain(WIKI_SECRET);
    expect(everything).not.toContain(stack.poisoned.url);
    // The answer does not hand the grant back, as OpenAI does not echo an mcp tool's headers.
    expect(JSON.stringify(r)).not.toContain("gw_mcpgrant_");
    expect((r.tools[0] as any).headers).toBeNull();
  });

  test("the provider's tool call is audited as the caller's, marked as made with a grant for that model call; the grant is never logged", async () => {
    const made = await openai.responses.create({ model: "gpt-4o", input: "What is the weather?", tools: [wikiTool()] }).withResponse();
    const callRequestId = made.response.headers.get("x-request-id");
    const grant = await lastGrant();
    const page = await stack.gw.op(stack.admin, "org.audit-log.list", { limit: 100 });
    const row = (page.body.data.entries as any[]).find((e) => e.action === "mcp.tool.call" && e.details.via === "tool-grant");
    expect(row.details).toMatchObject({ server: "wiki", tool: "weather", outcome: "ok", sandbox: false, callRequestId });
    expect(typeof row.details.keyId).toBe("string");
    const logged = stack.gw.lines.join("\n");
    expect(logged).toContain('"route":"/mcp"');
    expect(logged).not.toContain(grant);
    expect(logged).not.toContain("gw_mcpgrant_");
  });

  test("a poisoned result is blocked before the provider sees it, and personal data is redacted", async () => {
    const blocked = await openai.responses.create({ model: "gpt-4o", input: "Read the wiki page", tools: [wikiTool()] });
    const call = items(blocked, "mcp_call")[0];
    expect(call.name).toBe("read_page");
    expect(call.status).toBe("failed");
    expect(JSON.stringify(call.error)).toContain("Blocked by the gateway's security policy");
    expect(JSON.stringify(blocked)).not.toContain(POISON.injection);

    const redacted = await openai.responses.create({ model: "gpt-4o", input: "Look up the customer", tools: [wikiTool()] });
    const looked = items(redacted, "mcp_call")[0];
    expect(looked.name).toBe("lookup_customer");
    expect(looked.output).toContain("[EMAIL_1]");
    expect(JSON.stringify(redacted)).not.toContain(POISON.email);
  });

  test("with the server's policy set to flag, the poisoned page reaches the provider marked, and the audit says so", async () => {
    const id = await serverId();
    expect((await stack.gw.op(stack.admin, "mcp.server.update", { id, scan: { injection: "flag" } })).status).toBe(200);
    try {
      const r = await openai.responses.create({ model: "gpt-4o", input: "Read the wiki page", tools: [wikiTool()] });
      const call = items(r, "mcp_call")[0];
      expect(call).toMatchObject({ name: "read_page", status: "completed" });
      expect(call.output).toContain(POISON.injection);
      const page = await stack.gw.op(stack.admin, "org.audit-log.list", { limit: 100 });
      const row = (page.body.data.entries as any[]).find((e) => e.action === "mcp.tool.call" && e.details.tool === "read_page");
      expect(row.details).toMatchObject({ via: "tool-grant", outcome: "ok", resultScan: "flagged" });
    } finally {
      await stack.gw.op(stack.admin, "mcp.server.update", { id, scan: {} });
    }
  });

  test("allowed_tools binds the grant: the provider is shown and may call only those tools", async () => {
    const r = await openai.responses.create({
      model: "gpt-4o",
      input: "Read the wiki page",
      tools: [wikiTool({ allowed_tools: ["weather"] })],
    });
    expect(items(r, "mcp_list_tools")[0].tools.map((t: { name: string }) => t.name)).toEqual(["weather"]);
    // Even a provider that ignored the list could not call another tool with this grant.
    const client = await stack.connect(await lastGrant());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["weather"]);
    const err = (await client.callTool({ name: "read_page", arguments: {} }).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("Unknown tool");
    expect((await client.listResources()).resources).toEqual([]);
  });

  test("an unknown name, or a server the key's allow lists leave out, is a 400 naming the tool", async () => {
    const res = await fetch(`${stack.gw.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.admin}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", input: "hi", tools: [{ type: "mcp", server_label: "nowhere" }] }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; param: string } };
    expect(body.error.param).toBe("tools[0].server_label");
    expect(body.error.message).toContain('no tool server named "nowhere"');

    const limited = await stack.newKey("limited-hosted");
    expect((await stack.gw.op(stack.admin, "mcp.access.set", { subject: limited.keyId, servers: ["other"], tools: ["*"] })).status).toBe(
      200,
    );
    const refused = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: limited.key, maxRetries: 0 });
    const err = (await refused.responses.create({ model: "gpt-4o", input: "hi", tools: [wikiTool()] }).catch((e) => e)) as {
      status: number;
      message: string;
    };
    expect(err.status).toBe(400);
    expect(err.message).toContain('no tool server named "wiki"');
  });
});

describe("the grant", () => {
  test("works only at /mcp: every other route refuses it as a credential", async () => {
    await openai.responses.create({ model: "gpt-4o", input: "What is the weather?", tools: [wikiTool()] });
    const grant = await lastGrant();
    for (const [method, path] of [
      ["GET", "/v1/models"],
      ["POST", "/v1/responses"],
      ["POST", "/v1/chat/completions"],
      ["POST", "/api/v1/gateway"],
    ] as const) {
      const res = await fetch(`${stack.gw.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${grant}`, "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify({ model: "gpt-4o", input: "hi", operation: "user.me", params: {} }) : undefined,
      });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect(await res.text()).toContain("accepted only at /mcp");
    }
    const client = await stack.connect(grant);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  test("is charged to its key's rate-limit bucket, as the key's own requests are", async () => {
    const k = await stack.newKey("bucket-hosted");
    const grant = mintToolGrant({
      dataDir: stack.gw.dataDir,
      key: k.key,
      orgId: stack.orgId,
      server: { id: await serverId(), name: "wiki" },
    });
    const remaining = async (token: string, path: string, init: RequestInit = {}) => {
      const res = await fetch(`${stack.gw.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      expect(res.status).not.toBe(401);
      return Number(res.headers.get("x-ratelimit-remaining"));
    };
    const first = await remaining(k.key, "/v1/models");
    const viaGrant = await remaining(grant, "/mcp", { method: "GET" });
    expect(viaGrant).toBe(first - 1);
    expect(await remaining(k.key, "/v1/models")).toBe(first - 2);
  });

  test("is refused once it expires", async () => {
    await openai.responses.create({ model: "gpt-4o", input: "What is the weather?", tools: [wikiTool()] });
    const grant = await lastGrant();
    const services = stack.gw.runtime.services;
    const realNow = services.now;
    services.now = () => realNow() + 11 * 60_000;
    try {
      const res = await fetch(`${stack.gw.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${grant}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "late", version: "1" } },
        }),
      });
      expect(res.status).toBe(401);
      expect(await res.text()).toContain("expired");
    } finally {
      services.now = realNow;
    }
  });

  test("ends with its key: a revoked key's grant is refused", async () => {
    const k = await stack.newKey("revoked-hosted");
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: k.key, maxRetries: 0 });
    await client.responses.create({ model: "gpt-4o", input: "What is the weather?", tools: [wikiTool()] });
    const grant = await lastGrant();
    expect((await stack.gw.op(stack.admin, "org.api-key.revoke", { keyId: k.keyId, reason: "test" })).status).toBe(200);
    const res = await fetch(`${stack.gw.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${grant}` }, body: "{}" });
    expect(res.status).toBe(401);
    await res.arrayBuffer();
  });
});

describe("a sandbox key", () => {
  test("naming a configured server never reaches it: its call is simulated, and its grant leads to the simulated tools", async () => {
    const sandbox = await stack.newKey("sandbox-hosted", "test");
    const beforeServer = stack.poisoned.received.length;
    const beforeMock = (await mock.requests()).length;
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: sandbox.key, maxRetries: 0 });
    const r = await client.responses.create({ model: "gpt-4o", input: "What is the weather?", tools: [wikiTool()] });
    expect(r.status).toBe("completed");
    expect(JSON.stringify(r)).not.toContain("gw_mcpgrant_");

    // A grant for the sandbox key, as its call was given, reaches only the simulated server.
    const grant = mintToolGrant({
      dataDir: stack.gw.dataDir,
      key: sandbox.key,
      orgId: stack.orgId,
      server: { id: await serverId(), name: "wiki" },
    });
    const agent = await stack.connect(grant);
    expect((await agent.listTools()).tools.map((t) => t.name).sort()).toEqual(["add", "echo", "get_time"]);
    const echoed = await agent.callTool({ name: "echo", arguments: { message: "simulated" } });
    expect((echoed.content as { text: string }[])[0]!.text).toBe("simulated");
    expect(stack.poisoned.received.length).toBe(beforeServer);
    expect((await mock.requests()).length).toBe(beforeMock);
  });
});
