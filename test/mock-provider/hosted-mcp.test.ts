/**
 * The mock's hosted `mcp` tools, against the poisoned test server directly (no gateway):
 * run only when no approval is needed and the call is whole; the tool's headers go with
 * every request; an unreachable server is OpenAI's 424; the answer conforms.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { setEgressPolicy } from "../../src/lib/egress/egress-policy.ts";
import { startMockProvider } from "../../src/mock-provider/server.ts";
import { type RunningMcpServer, startPoisonedMcpServer } from "../support/mcp-servers.ts";
import { expectConforms } from "../support/openai-schemas.ts";
import { freePort } from "../support/servers.ts";

let mock: ReturnType<typeof startMockProvider>;
let server: RunningMcpServer;
let openai: OpenAI;

beforeAll(() => {
  // The test server is on loopback, where only the operator's setting lets the mock (through the egress fetch) go.
  setEgressPolicy({ allowPrivate: true });
  mock = startMockProvider({ host: "127.0.0.1", port: 0, latencyMs: 0 });
  server = startPoisonedMcpServer();
  openai = new OpenAI({ baseURL: `http://127.0.0.1:${mock.port}/v1`, apiKey: "mock-key", maxRetries: 0 });
});

afterAll(async () => {
  await mock.stop(true);
  await server.stop();
  setEgressPolicy({ allowPrivate: false });
});

const mcpTool = (extra: Record<string, unknown>) =>
  ({ type: "mcp", server_label: "wiki", server_url: server.url, headers: { Authorization: "Bearer tool-token" }, ...extra }) as never;

const types = (r: { output: { type: string }[] }) => r.output.map((o) => o.type);

test("with require_approval never, the mock lists the tools, calls the one the ask names, and quotes its result", async () => {
  const before = server.received.length;
  const r = await openai.responses.create({
    model: "gpt-4o",
    input: "What is the weather?",
    tools: [mcpTool({ require_approval: "never" })],
  });
  expectConforms("Response", r);
  expect(types(r as never)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
  const call = r.output[1] as { name: string; output: string; server_label: string };
  expect(call).toMatchObject({ name: "weather", output: "Sunny, 21 degrees.", server_label: "wiki" });
  expect(r.output_text).toContain("Sunny, 21 degrees.");
  const sent = server.received.slice(before);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.every((h) => h.get("authorization") === "Bearer tool-token")).toBe(true);
  expect(server.calls.at(-1)?.name).toBe("weather");
});

test("a tool's error is an mcp_call that failed; allowed_tools limits what is listed", async () => {
  const r = await openai.responses.create({
    model: "gpt-4o",
    input: "Fail loudly please",
    tools: [mcpTool({ require_approval: "never", allowed_tools: ["fail_loudly", "weather"] })],
  });
  const listed = r.output[0] as { tools: { name: string }[] };
  expect(listed.tools.map((t) => t.name)).toEqual(["weather", "fail_loudly"]);
  const call = r.output[1] as { name: string; status: string; error: { type: string } };
  expect(call).toMatchObject({ name: "fail_loudly", status: "failed" });
  expect(call.error.type).toBe("mcp_protocol_error");
});

test("a tool that needs approval, or a streamed call, is left alone: the server is never contacted", async () => {
  const before = server.received.length;
  const approval = await openai.responses.create({ model: "gpt-4o", input: "What is the weather?", tools: [mcpTool({})] });
  expect(types(approval as never)).toEqual(["message"]);
  const stream = openai.responses.stream({
    model: "gpt-4o",
    input: "What is the weather?",
    tools: [mcpTool({ require_approval: "never" })],
  });
  expect(types((await stream.finalResponse()) as never)).toEqual(["message"]);
  expect(server.received.length).toBe(before);
});

test("a server that cannot be listed is a 424 naming its label, as at OpenAI", async () => {
  const closed = `http://127.0.0.1:${await freePort()}/mcp`;
  const err = (await openai.responses
    .create({ model: "gpt-4o", input: "hi", tools: [mcpTool({ require_approval: "never", server_url: closed })] })
    .catch((e) => e)) as { status: number; message: string };
  expect(err.status).toBe(424);
  expect(err.message).toContain("Error retrieving tool list from MCP server: 'wiki'");
});
