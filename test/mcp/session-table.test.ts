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

test("another caller presenting a session's id does not keep it alive", async () => {
  const clock = { now: 1_000_000 };
  const table = new SessionTable({ max: 10, idleMs: 1000, now: () => clock.now });
  const theirs = session("theirs", "key:k1");
  table.add(theirs);
  for (let n = 0; n < 3; n++) {
    clock.now += 800;
    expect(table.get("theirs", "key:k2")).toBeNull();
  }
  expect(table.get("theirs", "key:k1")).toBeNull();
  await Bun.sleep(0);
  expect(theirs.closed()).toBe(true);
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

test("one owner holds at most perOwner sessions: opening another closes its oldest, and no one else's", async () => {
  const table = new SessionTable({ max: 100, idleMs: 60_000, perOwner: 3 });
  const other = session("other", "key:k2");
  table.add(other);
  const mine = Array.from({ length: 5 }, (_, i) => session(`m${i}`, "key:k1"));
  for (const s of mine) table.add(s);
  expect(table.get("m0", "key:k1")).toBeNull();
  expect(table.get("m1", "key:k1")).toBeNull();
  expect(["m2", "m3", "m4"].map((id) => table.get(id, "key:k1")?.id)).toEqual(["m2", "m3", "m4"]);
  expect(table.get("other", "key:k2")?.id).toBe("other");
  expect(table.size).toBe(4);
  await Bun.sleep(0);
  expect(mine[0]!.closed()).toBe(true);
  expect(other.closed()).toBe(false);
  // A session that ended frees its place.
  table.remove("m2");
  table.add(session("m5", "key:k1"));
  expect(table.get("m3", "key:k1")?.id).toBe("m3");
});

test("a tool grant's sessions count as its holder's: new grants do not multiply a key's share", () => {
  const table = new SessionTable({ max: 100, idleMs: 60_000, perOwner: 2 });
  for (const n of [1, 2, 3]) table.add({ ...session(`g${n}`, `grant:${n}`), holder: "key:k1" });
  expect(table.get("g1", "grant:1")).toBeNull();
  expect(table.get("g3", "grant:3")?.id).toBe("g3");
  table.add(session("own", "key:k1"));
  expect(table.get("g2", "grant:2")).toBeNull();
  expect(table.size).toBe(2);
});

test("one organization holds at most perOrg sessions (its oldest closed), so it cannot crowd out the others", () => {
  const table = new SessionTable({ max: 10, idleMs: 60_000, perOwner: 10, perOrg: 3 });
  table.add(session("other", "key:x", "org_b"));
  for (let n = 0; n < 10; n++) table.add(session(`a${n}`, `key:k${n}`, "org_a"));
  expect(table.get("other", "key:x")?.id).toBe("other");
  expect(
    table
      .forOrg("org_a")
      .map((s) => s.id)
      .sort(),
  ).toEqual(["a7", "a8", "a9"]);
});
