/**
 * Tool servers as organization configuration, with private egress off (the default):
 * addresses checked by the egress policy when saved and again at connection time,
 * geography, credentials never shown, admins only.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { type RunningMcpServer, startPoisonedMcpServer } from "../support/mcp-servers.ts";

let gw: InProcessGateway;
let admin: string;
let poisoned: RunningMcpServer;

beforeAll(async () => {
  gw = await startInProcessGateway({ env: { GW_ALLOW_PRIVATE_PROVIDERS: "0" } });
  admin = gw.init.keyValue;
  poisoned = startPoisonedMcpServer();
});

afterAll(async () => {
  await gw?.stop();
  await poisoned?.stop();
});

test("an internal URL is refused when saved, naming the setting that would allow it", async () => {
  const r = await gw.op({ key: admin }, "mcp.server.create", { name: "internal", url: poisoned.url });
  expect(r.status).toBe(400);
  expect(r.body.error).toContain("params.url: this address is not allowed");
  expect(r.body.error).toContain("GW_ALLOW_PRIVATE_EGRESS=1");
});

test("a metadata address is refused, and so is an OAuth token endpoint on a private network", async () => {
  const metadata = await gw.op({ key: admin }, "mcp.server.create", { name: "meta", url: "http://169.254.169.254/latest" });
  expect(metadata.status).toBe(400);
  expect(metadata.body.error).toContain("never reaches");
  const token = await gw.op({ key: admin }, "mcp.server.create", {
    name: "oauth",
    url: "https://tools.example.com/mcp",
    auth: { type: "oauth", tokenUrl: "http://10.0.0.5/token", clientId: "c", clientSecret: "s3cret-value" },
  });
  expect(token.status).toBe(400);
  expect(token.body.error).toContain("params.auth.tokenUrl");
});

test("an address that turns internal after it was saved is refused at connection time: nothing reaches it", async () => {
  const now = Date.now();
  // As if its name now resolved to loopback (DNS rebinding): written past the save-time check.
  await gw.rt.store.createMcpServer({
    id: "mcp_rebound",
    orgId: gw.init.organization.id,
    name: "rebound",
    url: poisoned.url,
    country: null,
    auth: { type: "none" },
    secretCiphertext: null,
    scan: {},
    createdAt: now,
    updatedAt: now,
  });
  const client = new Client({ name: "t", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gw.origin}/mcp`), {
      fetch: (url, init) => gw.handle(new Request(String(url), init)),
      requestInit: { headers: { authorization: `Bearer ${admin}` } },
    }),
  );
  expect((await client.listTools()).tools).toEqual([]);
  const call = (await client.callTool({ name: "rebound__weather", arguments: {} }).catch((e: Error) => e)) as Error;
  expect(call).toBeInstanceOf(Error);
  expect(poisoned.received).toEqual([]);
  gw.rt.log.flush();
  const warned = gw.logged
    .join("")
    .split("\n")
    .find((l) => l.includes("mcp server unreachable"));
  expect(JSON.parse(warned as string)).toMatchObject({ serverId: "mcp_rebound", error: "EgressRefused" });
  await client.close();
  await gw.rt.store.deleteMcpServer("mcp_rebound");
});

test("a server in a country the geography policy refuses is not saved", async () => {
  const r = await gw.op({ key: admin }, "mcp.server.create", { name: "far", url: "https://tools.example.com/mcp", country: "CN" });
  expect(r.status).toBe(403);
  expect(r.body.code).toBe("provider_blocked");
});

test("names are namespaces: unique, without the separator; credentials never come back", async () => {
  const bad = await gw.op({ key: admin }, "mcp.server.create", { name: "a__b", url: "https://tools.example.com/mcp" });
  expect(bad.status).toBe(400);
  const reserved = await gw.op({ key: admin }, "mcp.server.create", {
    name: "gh",
    url: "https://tools.example.com/mcp",
    auth: { type: "headers", headers: { host: "evil.example" } },
  });
  expect(reserved.status).toBe(400);
  const ok = await gw.op({ key: admin }, "mcp.server.create", {
    name: "gh",
    url: "https://tools.example.com/mcp",
    auth: { type: "oauth", tokenUrl: "https://auth.example.com/token", clientId: "client-1", clientSecret: "very-secret-client-value" },
  });
  expect(ok.status).toBe(200);
  expect(ok.body.data.server.auth).toEqual({
    type: "oauth",
    tokenUrl: "https://auth.example.com/token",
    clientId: "client-1",
    scope: null,
  });
  const again = await gw.op({ key: admin }, "mcp.server.create", { name: "gh", url: "https://tools.example.com/other" });
  expect(again.status).toBe(409);
  const listed = await gw.op({ key: admin }, "mcp.server.list");
  expect(JSON.stringify(listed.body)).not.toContain("very-secret-client-value");
  const renamed = await gw.op({ key: admin }, "mcp.server.update", { id: ok.body.data.server.id, name: "github" });
  expect(renamed.body.data.server.name).toBe("github");
  expect((await gw.op({ key: admin }, "mcp.server.delete", { id: ok.body.data.server.id })).status).toBe(200);
  expect((await gw.op({ key: admin }, "mcp.server.delete", { id: ok.body.data.server.id })).status).toBe(404);
});

test("only admins configure servers and access; a member key is refused", async () => {
  const member = await gw.op({ key: admin }, "org.service-account.create", { serviceAccountName: "member-bot", role: "member" });
  const key = member.body.data.apiKey.key;
  expect((await gw.op({ key }, "mcp.server.create", { name: "x", url: "https://tools.example.com/mcp" })).status).toBe(403);
  expect((await gw.op({ key }, "mcp.server.list")).status).toBe(403);
  expect((await gw.op({ key }, "mcp.access.set", { subject: member.body.data.serviceAccount.id, tools: ["*"] })).status).toBe(403);
});

test("access lists are set on the organization's own subjects only, and can be cleared", async () => {
  const sa = await gw.op({ key: admin }, "org.service-account.create", { serviceAccountName: "limited" });
  const subject = sa.body.data.serviceAccount.id;
  const set = await gw.op({ key: admin }, "mcp.access.set", { subject, servers: ["wiki"], tools: ["wiki__*"] });
  expect(set.body.data.access).toMatchObject({ subject, servers: ["wiki"], tools: ["wiki__*"] });
  expect((await gw.op({ key: admin }, "mcp.access.list")).body.data.access.map((a: any) => a.subject)).toContain(subject);
  expect((await gw.op({ key: admin }, "mcp.access.set", { subject: "sa_someone_else", tools: ["*"] })).status).toBe(404);
  expect((await gw.op({ key: admin }, "mcp.access.set", { subject, clear: true })).body.data.access).toBeNull();
  expect((await gw.op({ key: admin }, "mcp.access.list")).body.data.access).toEqual([]);
});
