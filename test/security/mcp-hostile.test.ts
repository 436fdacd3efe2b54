/**
 * The MCP gateway against a hostile tool server and a hostile agent (docs/security.md,
 * "MCP review (2026-11-27)"): what a server says of its tools, its progress messages,
 * its prompts and its errors meet the scan; what no scan reads is refused; a
 * tools/list_changed storm is told once; a JSON-RPC batch cannot step around the rate
 * limit; a server name cannot reach into another's namespace; a key allowed some of a
 * server's tools reads none of its resources or prompts.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ENDLESS_REPORTS, type HostileMcpServer, startHostileMcpServer, startNotesMcpServer } from "../support/hostile-mcp-server.ts";
import { POISON } from "../support/mcp-servers.ts";
import { type McpStack, openRawMcpSession, startMcpStack, textOf } from "../support/mcp-stack.ts";

const HOSTILE_AUTHORIZATION = "Bearer hostile-secret-token-5678";

let stack: McpStack;
let hostile: HostileMcpServer;
let notes: HostileMcpServer;

beforeAll(async () => {
  // A response may carry 2 MiB here, so the hostile `huge` result (3 MiB) is over it; a call reporting
  // progress may take 1 s, which the hostile `endless_progress` (5 s of reports unless cancelled) is over.
  stack = await startMcpStack({
    everything: false,
    env: { GW_LOG_LEVEL: "warn", GW_MAX_BODY_BYTES: String(2 * 1024 * 1024), GW_UPSTREAM_TIMEOUT_S: "1" },
  });
  hostile = startHostileMcpServer();
  const created = await stack.gw.op(stack.admin, "mcp.server.create", {
    name: "hostile",
    url: hostile.url,
    auth: { type: "headers", headers: { authorization: HOSTILE_AUTHORIZATION } },
  });
  expect(created.status).toBe(200);
  // Configured after the hostile server, which is asked first when servers are asked in turn.
  notes = startNotesMcpServer();
  expect((await stack.gw.op(stack.admin, "mcp.server.create", { name: "notes", url: notes.url })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await hostile?.stop();
  await notes?.stop();
});

test("a tool whose description carries an injection is left out of tools/list; the others are listed", async () => {
  const client = await stack.connect(stack.admin);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain("hostile__deep_result");
  expect(names).not.toContain("hostile__poisoned_description");
  expect(JSON.stringify(await client.listTools())).not.toContain(POISON.injection);
});

test("a tool name MCP does not allow (a right-to-left override) is left out of tools/list", async () => {
  const client = await stack.connect(stack.admin);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names.filter((n) => n.startsWith("hostile__list_files"))).toEqual([]);
});

test("a result larger than a response may be fails the call at once; the server is connected afresh next time", async () => {
  const client = await stack.connect(stack.admin);
  const err = (await client.callTool({ name: "hostile__huge", arguments: {} }).catch((e: Error) => e)) as Error;
  expect(err).toBeInstanceOf(Error);
  expect(err.message).toContain("The tool server hostile could not be reached or did not answer.");
  const after = await client.callTool({ name: "hostile__storm", arguments: {} });
  expect(textOf(after)).toBe("done");
});

test("a progress message carrying a credential reaches the agent without its message", async () => {
  const client = await stack.connect(stack.admin);
  const notes: { progress: number; total?: number; message?: string }[] = [];
  const result = await client.callTool({ name: "hostile__progress_leak", arguments: {} }, undefined, {
    onprogress: (p) => void notes.push(p),
  });
  expect(textOf(result)).toBe("done");
  expect(notes).toEqual([{ progress: 1, total: 2 }]);
});

test("a server reporting progress without end cannot hold the call past the bound: it ends in the gateway's words, the server told to stop", async () => {
  const client = await stack.connect(stack.admin);
  const reports: number[] = [];
  const err = (await client
    .callTool({ name: "hostile__endless_progress", arguments: {} }, undefined, { onprogress: (p) => void reports.push(p.progress) })
    .catch((e: Error) => e)) as Error;
  expect(err).toBeInstanceOf(Error);
  expect(err.message).toContain("The tool server hostile did not answer in the time the gateway allows.");
  // The server's loop ends on the cancellation, not after all its reports.
  expect(reports.length).toBeLessThan(ENDLESS_REPORTS);
  while (!hostile.received.some((r) => r.name === "cancelled")) await Bun.sleep(10);
});

test("structured content nested deeper than the scan reads is blocked, not passed unscanned", async () => {
  const client = await stack.connect(stack.admin);
  const result = (await client.callTool({ name: "hostile__deep_result", arguments: {} })) as { isError?: boolean };
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain("nested deeper than 32 levels");
  expect(JSON.stringify(result)).not.toContain(POISON.credential);
});

test("a credential as a member name is found: in a result it blocks, in arguments it never leaves", async () => {
  const client = await stack.connect(stack.admin);
  const result = (await client.callTool({ name: "hostile__named_result", arguments: {} })) as { isError?: boolean };
  expect(result.isError).toBe(true);
  expect(JSON.stringify(result)).not.toContain(POISON.credential);
  const before = hostile.received.length;
  const refused = (await client.callTool({ name: "hostile__storm", arguments: { [POISON.credential]: true } })) as { isError?: boolean };
  expect(refused.isError).toBe(true);
  expect(hostile.received.length).toBe(before);
});

test("arguments nested deeper than the scan reads never leave", async () => {
  const client = await stack.connect(stack.admin);
  let deep: unknown = POISON.credential;
  for (let i = 0; i < 40; i++) deep = { next: deep };
  const before = hostile.received.length;
  const refused = (await client.callTool({ name: "hostile__deep_result", arguments: { deep } })) as { isError?: boolean };
  expect(refused.isError).toBe(true);
  expect(textOf(refused)).toContain("the arguments are nested deeper than 32 levels");
  expect(hostile.received.length).toBe(before);
});

test("a tools/list_changed storm is passed on once until the tools are listed again", async () => {
  const client = await stack.connect(stack.admin);
  await client.listTools();
  const mcp = stack.gw.runtime.mcp;
  const original = mcp.toolsChanged.bind(mcp);
  let told = 0;
  mcp.toolsChanged = (orgId) => {
    told += 1;
    original(orgId);
  };
  try {
    await client.callTool({ name: "hostile__storm", arguments: {} });
  } finally {
    mcp.toolsChanged = original;
  }
  expect(told).toBe(1);
});

test("prompts/get: an injecting prompt is blocked, arguments are scanned, an error never echoes the server's credentials", async () => {
  const client = await stack.connect(stack.admin);
  const names = (await client.listPrompts()).prompts.map((p) => p.name);
  expect(names).toContain("hostile__poisoned");
  const blocked = (await client.getPrompt({ name: "hostile__poisoned" }).catch((e: Error) => e)) as Error;
  expect(blocked).toBeInstanceOf(Error);
  expect(blocked.message).toContain("Blocked by the gateway's security policy");
  expect(blocked.message).not.toContain(POISON.injection);
  const before = hostile.received.length;
  const refused = (await client
    .getPrompt({ name: "hostile__summarize", arguments: { text: POISON.credential } })
    .catch((e: Error) => e)) as Error;
  expect(refused.message).toContain("a credential");
  expect(hostile.received.length).toBe(before);
  const echoed = (await client.getPrompt({ name: "hostile__echo_auth" }).catch((e: Error) => e)) as Error;
  expect(echoed).toBeInstanceOf(Error);
  expect(echoed.message).not.toContain("hostile-secret-token-5678");
  const fine = await client.getPrompt({ name: "hostile__summarize", arguments: { text: "the weather" } });
  expect(JSON.stringify(fine.messages)).toContain("Summarize: the weather");
  const audit = await stack.gw.op(stack.admin, "org.audit-log.list", { limit: 200 });
  const rows = (audit.body.data.entries as any[]).filter((e) => e.action === "mcp.prompt.get");
  expect(rows.map((r) => r.details.outcome).sort()).toEqual(["blocked", "blocked", "ok"]);
  expect(JSON.stringify(rows)).not.toContain(POISON.injection);
});

test("resources/read goes only to the server that lists the URI: another cannot shadow it or learn the URI", async () => {
  const client = await stack.connect(stack.admin);
  const read = await client.readResource({ uri: "notes://plan" });
  expect(read.contents).toEqual([{ uri: "notes://plan", text: "the plan" }]);
  const missing = (await client.readResource({ uri: "nowhere://x" }).catch((e: Error) => e)) as Error;
  expect(missing.message).toContain("Resource not found");
  expect(hostile.received.filter((r) => r.name === "resources/read")).toEqual([]);
  const audit = await stack.gw.op(stack.admin, "org.audit-log.list", { limit: 200 });
  const rows = (audit.body.data.entries as any[]).filter((e) => e.action === "mcp.resource.read");
  expect(rows.map((r) => [r.target, r.details.outcome])).toEqual([["notes", "ok"]]);
});

test("a JSON-RPC batch is refused, so one request cannot carry many charged calls", async () => {
  const session = await openRawMcpSession(stack.gw.url, stack.admin, { initialized: false });
  const before = hostile.received.length;
  const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "hostile__storm", arguments: {} } });
  const batch = await fetch(`${stack.gw.url}/mcp`, { method: "POST", headers: session, body: JSON.stringify([call(2), call(3), call(4)]) });
  expect(batch.status).toBe(400);
  expect(((await batch.json()) as { error: { message: string } }).error.message).toContain("one JSON-RPC message per request");
  expect(hostile.received.length).toBe(before);
});

test("a server name ending in _ is refused: its tools would read as another server's", async () => {
  for (const name of ["hostile_", "_hostile"]) {
    const r = await stack.gw.op(stack.admin, "mcp.server.create", { name, url: hostile.url });
    expect(r.status).toBe(400);
  }
  expect((await stack.gw.op(stack.admin, "mcp.server.create", { name: "a-b_c", url: hostile.url })).status).toBe(200);
});

test("a key allowed some tools of a server reads none of its resources or prompts; one allowed all of them does", async () => {
  const some = await stack.newKey("one-tool-bot");
  const all = await stack.newKey("whole-server-bot");
  const servers = ["hostile", "notes"];
  const limit = (subject: string, tools: string[]) => stack.gw.op(stack.admin, "mcp.access.set", { subject, servers, tools });
  expect((await limit(some.keyId, ["hostile__storm", "notes__index"])).status).toBe(200);
  expect((await limit(all.keyId, ["hostile__*", "notes__*"])).status).toBe(200);

  const limited = await stack.connect(some.key);
  expect((await limited.listTools()).tools.map((t) => t.name)).toEqual(["hostile__storm"]);
  expect((await limited.listPrompts()).prompts).toEqual([]);
  expect((await limited.listResources()).resources).toEqual([]);
  const before = hostile.received.length;
  // Refused as if they did not exist, as a tool not allowed is.
  const prompt = (await limited.getPrompt({ name: "hostile__summarize", arguments: { text: "x" } }).catch((e: Error) => e)) as Error;
  expect(prompt.message).toContain("Unknown prompt: hostile__summarize");
  const read = (await limited.readResource({ uri: "notes://plan" }).catch((e: Error) => e)) as Error;
  expect(read.message).toContain("Resource not found: notes://plan");
  expect(hostile.received.length).toBe(before);

  const whole = await stack.connect(all.key);
  expect((await whole.listPrompts()).prompts.map((p) => p.name)).toContain("hostile__summarize");
  expect((await whole.readResource({ uri: "notes://plan" })).contents).toEqual([{ uri: "notes://plan", text: "the plan" }]);
  const fine = await whole.getPrompt({ name: "hostile__summarize", arguments: { text: "the weather" } });
  expect(JSON.stringify(fine.messages)).toContain("Summarize: the weather");
});
