/**
 * The simulated tool server a sandbox (`gw_test_`) key sees instead of the
 * organization's real ones, as its model calls get the simulator: a few tools answered
 * in process, so an integration can be built and tested without reaching anything.
 * Its results pass the same scan as real ones.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

export const SANDBOX_SERVER = "sandbox";

interface SimulatedTool {
  tool: Tool;
  run(args: Record<string, unknown>): CallToolResult;
}

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

const TOOLS: SimulatedTool[] = [
  {
    tool: {
      name: "echo",
      description: "Returns the message it is given (simulated).",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    run: (args) => text(String(args.message ?? "")),
  },
  {
    tool: {
      name: "add",
      description: "Adds two numbers (simulated).",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    },
    run: (args) => {
      const sum = Number(args.a) + Number(args.b);
      return { ...text(String(sum)), structuredContent: { sum } };
    },
  },
  {
    tool: {
      name: "get_time",
      description: "The current time in ISO 8601 (simulated).",
      inputSchema: { type: "object", properties: {} },
    },
    run: () => text(new Date().toISOString()),
  },
];

export const sandboxTools = (): Tool[] => TOOLS.map((t) => t.tool);

/** The simulated answer, or null for a tool the sandbox does not have. */
export function runSandboxTool(name: string, args: Record<string, unknown>): CallToolResult | null {
  return TOOLS.find((t) => t.tool.name === name)?.run(args) ?? null;
}
