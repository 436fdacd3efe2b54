/**
 * The mock's hosted `mcp` tools, as OpenAI runs them, for a whole (not streamed)
 * Responses call with an `mcp` tool whose `require_approval` is `"never"`: it connects
 * to the tool's `server_url` with the tool's `headers` (the official MCP SDK client),
 * lists the tools (`allowed_tools` applied), calls the one the simulator picks for the
 * last user message with arguments from its input schema, and answers with an
 * `mcp_list_tools` item, an `mcp_call` item and a message that quotes the result.
 * A server that cannot be listed is a 424, as at OpenAI. Tests use it to see what a
 * provider does with the tool the gateway gave it (docs/mock-provider.md).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { egressFetch } from "../lib/egress/egress-fetch.ts";
import { simulateChat } from "../simulator/chat-simulator.ts";
import { textOf } from "../simulator/conversation.ts";
import { openAiError } from "../simulator/openai-format.ts";

type Json = Record<string, unknown>;

/** The first `mcp` tool the mock runs itself: one with a URL that needs no approval. */
function hostedTool(body: Json): Json | null {
  if (body.stream === true || !Array.isArray(body.tools)) return null;
  const tool = body.tools.find((t) => {
    const m = t as Json | null;
    return m?.type === "mcp" && typeof m.server_url === "string" && m.require_approval === "never";
  });
  return (tool as Json | undefined) ?? null;
}

/** The last user message, as the simulator reads it. */
function lastAsk(input: unknown): string {
  if (typeof input === "string") return input;
  const items = Array.isArray(input) ? (input as Json[]) : [];
  return textOf(items.findLast((i) => i?.role === "user")?.content);
}

/** The tools `allowed_tools` lets through (a list, or `{tool_names}`). */
function allowed(tool: Json, tools: Tool[]): Tool[] {
  const a = tool.allowed_tools;
  const names = Array.isArray(a) ? a : (a as { tool_names?: unknown } | null)?.tool_names;
  return Array.isArray(names) ? tools.filter((t) => names.includes(t.name)) : tools;
}

/** The MCP SDK client on `url`, every request carrying `headers`; `close` ends the session on the server too. */
async function connect(url: string, headers: Record<string, string>): Promise<{ client: Client; close(): Promise<void> }> {
  const client = new Client({ name: "mock-provider", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (u, init = {}) => {
      const { redirect: _manual, ...rest } = init;
      const h = new Headers(rest.headers);
      for (const [name, value] of Object.entries(headers)) h.set(name, value);
      return egressFetch(u, { ...rest, headers: h });
    },
  });
  await client.connect(transport);
  return {
    client,
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}

const resultText = (r: CallToolResult) =>
  r.content.map((p) => (p.type === "text" ? p.text : JSON.stringify(p))).join("\n") || JSON.stringify(r.structuredContent ?? {});

/**
 * The answer to a call with a hosted `mcp` tool, or null when the call has none for the
 * mock to run. `respond` is the mock's ordinary Responses answer to a body.
 */
export async function hostedMcpAnswer(body: Json, respond: (body: Json) => Promise<Response>): Promise<Response | null> {
  const tool = hostedTool(body);
  if (!tool) return null;
  const label = String(tool.server_label ?? "");
  let session: Awaited<ReturnType<typeof connect>> | null = null;
  let tools: Tool[];
  try {
    session = await connect(tool.server_url as string, (tool.headers as Record<string, string> | null) ?? {});
    tools = allowed(tool, (await session.client.listTools()).tools);
  } catch (err) {
    await session?.close();
    return openAiError(
      424,
      `Error retrieving tool list from MCP server: '${label}'. ${(err as Error).message}`,
      "external_connector_error",
    );
  }
  try {
    const ask = lastAsk(body.input);
    const functions = tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
    const call = simulateChat({
      model: String(body.model),
      messages: [{ role: "user", content: ask }],
      tools: functions,
      tool_choice: "required",
    }).toolCalls[0];
    const listed = {
      type: "mcp_list_tools",
      id: `mcpl_${crypto.randomUUID().replaceAll("-", "")}`,
      server_label: label,
      tools: tools.map((t) => ({
        name: t.name,
        description: t.description ?? null,
        input_schema: t.inputSchema,
        annotations: t.annotations ?? null,
      })),
      error: null,
    };
    if (!call) return answer(await respond(body), [listed]);
    const called: Json = {
      type: "mcp_call",
      id: `mcp_${crypto.randomUUID().replaceAll("-", "")}`,
      server_label: label,
      name: call.name,
      arguments: call.arguments,
      approval_request_id: null,
      output: null,
      error: null,
      status: "completed",
    };
    let output = "";
    try {
      const result = (await session.client.callTool({ name: call.name, arguments: JSON.parse(call.arguments) })) as CallToolResult;
      output = resultText(result);
      if (result.isError) Object.assign(called, { error: { type: "mcp_tool_execution_error", content: result.content }, status: "failed" });
      else called.output = output;
    } catch (err) {
      const code = err instanceof McpError ? err.code : -32603;
      output = (err as Error).message;
      Object.assign(called, { error: { type: "mcp_protocol_error", code, message: output }, status: "failed" });
    }
    // The model's message after the call: the simulator's answer to the same ask with the tool's result.
    const callId = `call_${(called.id as string).slice(4)}`;
    const followUp = {
      ...body,
      input: [
        { role: "user", content: ask },
        { type: "function_call", call_id: callId, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: callId, output },
      ],
    };
    return answer(await respond(followUp), [listed, called]);
  } finally {
    await session.close();
  }
}

/** The ordinary answer with the hosted tool's items before its own output. */
async function answer(res: Response, items: Json[]): Promise<Response> {
  if (!res.ok) return res;
  const response = (await res.json()) as Json;
  response.output = [...items, ...(response.output as unknown[])];
  return Response.json(response);
}
