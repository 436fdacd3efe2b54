/**
 * The MCP review's second pass (docs/security.md, "MCP review, second pass
 * (2026-11-28)"), against `startSmugglingMcpServer`, a tool server that puts its text
 * where the first pass's scans did not look: the descriptions in resource, template and
 * prompt listings (tool poisoning by another door), and a result's `_meta` or members
 * MCP does not define (in a tool result, a resource's contents, a prompt's answer),
 * which a client may show its model or its logs all the same. And an agent that goes
 * away in the middle of a call: the server is told to stop, as a provider is.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type HostileMcpServer,
  PAGE_BYTES,
  startGatedMcpServer,
  startPagingMcpServer,
  startSmugglingMcpServer,
} from "../support/hostile-mcp-server.ts";
import { POISON } from "../support/mcp-servers.ts";
import { type McpStack, openRawMcpSession, startMcpStack, textOf } from "../support/mcp-stack.ts";
import { Upstream } from "../../src/mcp/upstream.ts";

const listTools = Upstream.prototype.listTools;
const protocol = Protocol.prototype as unknown as { _oncancel: (...args: unknown[]) => unknown };
const oncancel = protocol._oncancel;

let stack: McpStack;
let smuggler: HostileMcpServer;
let pager: HostileMcpServer;

/** What a response may carry here (GW_MAX_BODY_BYTES): two of the pager's pages, where it would send 20. */
const MAX_BODY_BYTES = 2 * PAGE_BYTES + 64 * 1024;

beforeAll(async () => {
  // A call may take 1 s here (with progress): a response stream is given 5 s more, no longer.
  stack = await startMcpStack({ everything: false, env: { GW_MAX_BODY_BYTES: String(MAX_BODY_BYTES), GW_UPSTREAM_TIMEOUT_S: "1" } });
  smuggler = startSmugglingMcpServer();
  expect((await stack.gw.op(stack.admin, "mcp.server.create", { name: "smuggler", url: smuggler.url })).status).toBe(200);
  pager = startPagingMcpServer();
  expect((await stack.gw.op(stack.admin, "mcp.server.create", { name: "pager", url: pager.url })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await smuggler?.stop();
  await pager?.stop();
});

const leaks = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.includes(POISON.injection) || text.includes(POISON.credential);
};

test("resources, templates and prompts whose descriptions (or names) carry an injection or a credential are left out of their listings", async () => {
  const client = await stack.connect(stack.admin);
  const resources = await client.listResources();
  expect(resources.resources.map((r) => r.uri)).toEqual(["smuggled://plain"]);
  const templates = await client.listResourceTemplates();
  expect(templates.resourceTemplates.map((t) => t.name)).toEqual(["plain-template"]);
  const prompts = await client.listPrompts();
  expect(prompts.prompts.map((p) => p.name).filter((n) => n.startsWith("smuggler__"))).toEqual(["smuggler__plain"]);
  expect(leaks([resources, templates, prompts])).toBe(false);
});

test("text in a tool result's _meta, in a member MCP does not define, or in a part's _meta is scanned: a credential or an injection there blocks", async () => {
  const client = await stack.connect(stack.admin);
  for (const name of ["smuggler__meta_leak", "smuggler__meta_injection", "smuggler__part_meta"]) {
    const result = (await client.callTool({ name, arguments: {} })) as { isError?: boolean };
    expect([name, result.isError]).toEqual([name, true]);
    expect(textOf(result)).toContain("Blocked by the gateway's security policy");
    expect(leaks(result)).toBe(false);
  }
});

test("a resource's contents and a prompt's answer are scanned whole: a credential in a content's _meta, an injection in the answer's _meta block", async () => {
  const client = await stack.connect(stack.admin);
  const read = (await client.readResource({ uri: "smuggled://plain" }).catch((e: Error) => e)) as Error;
  expect(read).toBeInstanceOf(Error);
  expect(read.message).toContain("Blocked by the gateway's security policy");
  expect(read.message).not.toContain(POISON.credential);
  const got = (await client.getPrompt({ name: "smuggler__plain" }).catch((e: Error) => e)) as Error;
  expect(got).toBeInstanceOf(Error);
  expect(got.message).toContain("Blocked by the gateway's security policy");
  expect(got.message).not.toContain(POISON.injection);
});

test("a tool left out of tools/list cannot be called by its name either: it answers as one that does not exist", async () => {
  const client = await stack.connect(stack.admin);
  expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("smuggler__poisoned");
  // A model told the name (by an injection elsewhere, say) calls it all the same.
  const err = (await client.callTool({ name: "smuggler__poisoned", arguments: {} }).catch((e: Error) => e)) as Error;
  expect(err).toBeInstanceOf(Error);
  expect(err.message).toContain("Unknown tool: smuggler__poisoned");
  expect(smuggler.received.filter((r) => r.name === "poisoned")).toEqual([]);
});

test("a listing is bounded as a whole as one response is: a server paging without end is left out once its pages pass the bound", async () => {
  const client = await stack.connect(stack.admin);
  const before = pager.received.length;
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names.filter((n) => n.startsWith("pager__"))).toEqual([]);
  expect(names).toContain("smuggler__hang");
  // It stopped reading at the page that passed the bound, not at the 20th.
  expect(pager.received.length - before).toBeLessThan(5);
});

test("a tool server configured at the gateway's own /mcp is refused at the first hop, not followed round", async () => {
  const self = await stack.gw.op(stack.admin, "mcp.server.create", {
    name: "self",
    url: `${stack.gw.url}/mcp`,
    auth: { type: "headers", headers: { authorization: `Bearer ${stack.admin}` } },
  });
  expect(self.status).toBe(200);
  try {
    const client = await stack.connect(stack.admin);
    const before = stack.poisoned.calls.length;
    // Each hop would strip one `self__` and call the gateway again, charged once each.
    const err = (await client.callTool({ name: "self__self__self__wiki__weather", arguments: {} }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain("The tool server self could not be reached or did not answer.");
    expect(stack.poisoned.calls.length).toBe(before);
    // Its listing is refused as quickly: the others are listed.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("wiki__weather");
  } finally {
    await stack.gw.op(stack.admin, "mcp.server.delete", { id: self.body.data.server.id });
  }
});

test("an agent that cancels its tools/list (or goes away) does not take a server out of another agent's listing, which shares the server's", async () => {
  const gated = startGatedMcpServer();
  const created = await stack.gw.op(stack.admin, "mcp.server.create", { name: "gated", url: gated.url });
  expect(created.status).toBe(200);
  try {
    const [leaving, staying] = [await stack.connect(stack.admin), await stack.connect(stack.admin)];
    // Counts the gateway's asks for the server's tools, so the cancel comes once both agents wait on the one
    // listing; and the cancellations any SDK peer handles, so the server answers once the gateway has had it.
    let asked = 0;
    let cancels = 0;
    Upstream.prototype.listTools = function (this: Upstream, ...args) {
      if (this.server.name === "gated") asked += 1;
      return listTools.apply(this, args);
    };
    protocol._oncancel = function (this: unknown, ...args: unknown[]) {
      cancels += 1;
      return oncancel.apply(this, args);
    };
    const gone = new AbortController();
    const left = leaving.listTools(undefined, { signal: gone.signal }).catch((e: Error) => e);
    while (gated.received.length < 1) await Bun.sleep(5);
    const listed = staying.listTools();
    while (asked < 2) await Bun.sleep(5);
    gone.abort();
    expect(await left).toBeInstanceOf(Error);
    while (cancels < 1) await Bun.sleep(5);
    await Bun.sleep(0);
    gated.release();
    expect((await listed).tools.map((t) => t.name)).toContain("gated__later");
  } finally {
    Upstream.prototype.listTools = listTools;
    protocol._oncancel = oncancel;
    await stack.gw.op(stack.admin, "mcp.server.delete", { id: created.body.data.server.id });
    await gated.stop();
  }
});

/** A session opened with plain requests, so a test can hang up on one of its calls as an agent that goes away does. */
const rawSession = () => openRawMcpSession(stack.gw.url, stack.admin, { initialized: true });

/** Calls `tool` in `session`, hanging up once the server has it; resolves when the request has ended on this side. */
async function hangUpOn(session: Record<string, string>, tool: string): Promise<void> {
  const gone = new AbortController();
  const call = fetch(`${stack.gw.url}/mcp`, {
    method: "POST",
    headers: session,
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: `smuggler__${tool}`, arguments: {} } }),
    signal: gone.signal,
  }).then((r) => r.text());
  while (!smuggler.received.some((r) => r.name === tool)) await Bun.sleep(5);
  gone.abort();
  await call.catch(() => {});
}

test("an agent that goes away in the middle of a tool call has the call cancelled at the server", async () => {
  await hangUpOn(await rawSession(), "hang");
  // The server's handler ends only when told the call was cancelled.
  while (!smuggler.received.some((r) => r.name === "cancelled")) await Bun.sleep(10);
}, 30_000);

test("a response stream a server holds open after the call ended is closed by the gateway, not kept for ever", async () => {
  await hangUpOn(await rawSession(), "stuck");
  // The server never answers, cancelled or not, and keeps its stream alive; the gateway hangs up at the bound.
  while (!smuggler.received.some((r) => r.name === "hung up" && r.arguments.tool === "stuck")) await Bun.sleep(10);
}, 30_000);
