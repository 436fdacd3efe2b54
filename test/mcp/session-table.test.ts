import { expect, test } from "bun:test";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type AgentSession, SessionTable } from "../../src/mcp/session-table.ts";

function session(id: string, owner = "key:k1", orgId = "org_1"): AgentSession & { closed: () => boolean } {
  const server = new Server({ name: "t", version: "1" }, { capabilities: {} });
  let closed = false;
  server.onclose = () => (closed = true);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  void server.connect(transport);
  return { id, owner, orgId, server, transport, closed: () => closed };
}

test("a session is found only by its owner", () => {
  const table = new SessionTable({ max: 10, idleMs: 60_000 });
  table.add(session("s1", "key:k1"));
  expect(table.get("s1", "key:k1")?.id).toBe("s1");
  expect(table.get("s1", "key:k2")).toBeNull();
  expect(table.get("nope", "key:k1")).toBeNull();
});

test("past the limit the least recently used session is closed", async () => {
  const table = new SessionTable({ max: 2, idleMs: 60_000 });
  const [a, b, c] = [session("a"), session("b"), session("c")];
  table.add(a);
  table.add(b);
  table.get("a", "key:k1");
  table.add(c);
  expect(table.get("b", "key:k1")).toBeNull();
  expect(table.get("a", "key:k1")?.id).toBe("a");
  await Bun.sleep(0);
  expect(b.closed()).toBe(true);
  expect(table.size).toBe(2);
});

test("a session idle past the timeout is gone and closed; use keeps it alive", async () => {
  const clock = { now: 1_000_000 };
  const table = new SessionTable({ max: 10, idleMs: 1000, now: () => clock.now });
  const [used, idle] = [session("used"), session("idle")];
  table.add(used);
  table.add(idle);
  clock.now += 800;
  expect(table.get("used", "key:k1")).not.toBeNull();
  clock.now += 800;
  expect(table.get("used", "key:k1")).not.toBeNull();
  expect(table.get("idle", "key:k1")).toBeNull();
  await Bun.sleep(0);
  expect(idle.closed()).toBe(true);
});

test("sessions are found by organization, to tell them a tool list changed", () => {
  const table = new SessionTable({ max: 10, idleMs: 60_000 });
  table.add(session("x", "key:k1", "org_a"));
  table.add(session("y", "key:k2", "org_b"));
  expect(table.forOrg("org_a").map((s) => s.id)).toEqual(["x"]);
});

test("a session added with a shorter idle limit (a tool grant's) is closed after it, while others stay", async () => {
  const clock = { now: 1_000_000 };
  const table = new SessionTable({ max: 10, idleMs: 10_000, now: () => clock.now });
  const [agent, provider] = [session("agent"), session("provider", "grant:g1")];
  table.add(agent);
  table.add(provider, 1000);
  clock.now += 1500;
  expect(table.get("provider", "grant:g1")).toBeNull();
  expect(table.get("agent", "key:k1")).not.toBeNull();
  await Bun.sleep(0);
  expect(provider.closed()).toBe(true);
});
