/**
 * The MCP Inspector's command line (`@modelcontextprotocol/inspector-cli`) against the
 * gateway's `/mcp`, as an operator would check a deployment: it connects over Streamable
 * HTTP with the gateway key as a bearer header, lists the namespaced tools and calls one.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, removeDir, tempDataDir } from "../support/gateway-process.ts";
import { type InProcessGateway, initOrgInProcess, startGatewayInProcess } from "../support/in-process.ts";
import { type RunningMcpServer, startPoisonedMcpServer } from "../support/mcp-servers.ts";

const INSPECTOR_BUILD = join(ROOT, "node_modules", "@modelcontextprotocol", "inspector-cli", "build");

let gw: InProcessGateway;
let admin: string;
let dataDir: string;
let poisoned: RunningMcpServer;

beforeAll(async () => {
  dataDir = tempDataDir();
  admin = (await initOrgInProcess(dataDir)).apiKey;
  gw = await startGatewayInProcess({ dataDir, env: { GW_LOG_LEVEL: "warn" } });
  poisoned = startPoisonedMcpServer();
  expect((await gw.op(admin, "mcp.server.create", { name: "wiki", url: poisoned.url })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await poisoned?.stop();
  removeDir(dataDir);
});

async function inspector(...args: string[]): Promise<{ code: number; out: any; err: string }> {
  const child = Bun.spawn(
    [
      "node",
      join(INSPECTOR_BUILD, "index.js"),
      `${gw.url}/mcp`,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${admin}`,
      ...args,
    ],
    // It finds its own package.json by a path it checks against the working directory but imports beside itself.
    { stdout: "pipe", stderr: "pipe", cwd: INSPECTOR_BUILD },
  );
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out: code === 0 ? JSON.parse(out) : out, err };
}

test("the Inspector CLI lists the gateway's namespaced tools", async () => {
  const r = await inspector("--method", "tools/list");
  expect(r.code).toBe(0);
  expect(r.out.tools.map((t: { name: string }) => t.name)).toEqual(
    expect.arrayContaining(["wiki__weather", "wiki__read_page", "wiki__echo"]),
  );
}, 60_000);

test("the Inspector CLI calls a tool, and a poisoned result comes back as the gateway's tool error", async () => {
  const ok = await inspector("--method", "tools/call", "--tool-name", "wiki__echo", "--tool-arg", "message=hello");
  expect(ok.code).toBe(0);
  expect(ok.out.content[0].text).toBe("hello");
  const blocked = await inspector("--method", "tools/call", "--tool-name", "wiki__read_page");
  expect(blocked.code).toBe(0);
  expect(blocked.out.isError).toBe(true);
  expect(blocked.out.content[0].text).toContain("Blocked by the gateway's security policy");
}, 60_000);
