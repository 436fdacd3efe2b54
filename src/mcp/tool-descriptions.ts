/**
 * What a tool server says of its tools reaches the model as instructions: names,
 * titles, descriptions and schemas are read before any call (tool poisoning). They are
 * scanned as a result is, under the same policy: a tool whose description the policy
 * blocks (an injection, a credential), or whose name is not one MCP allows, is left
 * out of `tools/list`; personal data is redacted. Verdicts are kept with the server's cached list, so a listing scans once.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpScanPolicy } from "../domain/mcp-records.ts";
import { scanResult } from "./tool-policy.ts";

/**
 * The names MCP asks tools to have (1 to 128 letters, digits, `_`, `-`, `.`): no control,
 * invisible or right-to-left characters that show one name and call another.
 */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Per cached tool list (until the server says it changed), per policy: the tools as agents see them. */
const checked = new WeakMap<Tool[], Map<string, Tool[]>>();

/** `tools` less those the policy blocks, with what it redacts replaced; `hidden` is told each one left out. */
export function describedSafely(tools: Tool[], policy: McpScanPolicy, phoneRegion: string, hidden: (name: string) => void): Tool[] {
  const key = JSON.stringify([policy, phoneRegion]);
  let byPolicy = checked.get(tools);
  const known = byPolicy?.get(key);
  if (known) return known;
  const safe = tools.flatMap((tool) => {
    if (!TOOL_NAME.test(tool.name)) {
      hidden(tool.name);
      return [];
    }
    const copy = structuredClone(tool);
    const { description, ...rest } = copy;
    const text = { type: "text", text: description ?? "" };
    const verdict = scanResult(
      { content: [text], structuredContent: rest },
      policy,
      `tools/list (${tool.name.slice(0, 100)})`,
      phoneRegion,
    );
    if (verdict.action === "blocked") {
      hidden(tool.name);
      return [];
    }
    // Names are how a tool is called: one the scan would change is not a tool the agent can name.
    if (rest.name !== tool.name) {
      hidden(tool.name);
      return [];
    }
    return [{ ...rest, ...(description !== undefined ? { description: text.text } : {}) } as Tool];
  });
  if (!byPolicy) checked.set(tools, (byPolicy = new Map()));
  byPolicy.set(key, safe);
  return safe;
}
