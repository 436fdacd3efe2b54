/**
 * What a tool server says of its tools, resources, templates and prompts reaches the
 * model as instructions: names, titles, descriptions and schemas are read before any
 * call (tool poisoning). They are scanned as a result is, under the same policy: an item
 * whose description the policy blocks (an injection, a credential), whose name (or URI)
 * the scan would change, or a tool whose name is not one MCP allows, is left out of its
 * listing; personal data is redacted. Tool verdicts are kept with the server's cached
 * list, so a listing scans once; the other listings are not cached, and are scanned as
 * they are read.
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
    const item = screened(tool, policy, phoneRegion, "tools/list", (t) => t.name);
    if (!item) hidden(tool.name);
    return item ? [item] : [];
  });
  if (!byPolicy) checked.set(tools, (byPolicy = new Map()));
  byPolicy.set(key, safe);
  return safe;
}

/**
 * `items` of a listing (`resources/list`, `resources/templates/list`, `prompts/list`)
 * less those the policy blocks, with what it redacts replaced; `idOf` is what the agent
 * names the item by (a URI, a template, a prompt's name), which the scan may not change.
 */
export function listedSafely<T extends { description?: string }>(
  items: T[],
  policy: McpScanPolicy,
  phoneRegion: string,
  listing: string,
  idOf: (item: T) => string,
  hidden: () => void,
): T[] {
  return items.flatMap((item) => {
    const safe = screened(item, policy, phoneRegion, listing, idOf);
    if (!safe) hidden();
    return safe ? [safe] : [];
  });
}

/** One item scanned whole (its description as text, the rest as structured content); null when it is to be left out. */
function screened<T extends { description?: string }>(
  item: T,
  policy: McpScanPolicy,
  phoneRegion: string,
  listing: string,
  idOf: (item: T) => string,
): T | null {
  const { description, ...rest } = structuredClone(item);
  const text = { type: "text", text: description ?? "" };
  const verdict = scanResult({ content: [text], structuredContent: rest }, policy, `${listing} (${idOf(item).slice(0, 100)})`, phoneRegion);
  if (verdict.action === "blocked") return null;
  // Names are how an item is asked for: one the scan would change is not one the agent can name.
  if (idOf(rest as T) !== idOf(item)) return null;
  return { ...rest, ...(description !== undefined ? { description: text.text } : {}) } as T;
}
