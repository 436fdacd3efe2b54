/**
 * What OpenAI charges per call of a built-in Responses tool, beside the tokens: the
 * answer's output items name each call (`web_search_call`, ...), and each is charged
 * at the highest per-call price OpenAI lists for it, so a call can neither spend for
 * free nor be charged less than it cost. The rows that carry a fee are marked as
 * estimated, as for an unlisted model. Tools billed by tokens alone (functions,
 * custom tools, MCP, computer use) have no fee. Source: openai.com/api/pricing
 * (built-in tools), highest listed price per call.
 */

/** Micro-dollars per call, by output item type. */
export const TOOL_CALL_FEES: Readonly<Record<string, number>> = {
  /** Web search: up to $25 per 1,000 calls (search-preview models). */
  web_search_call: 25_000,
  /** File search: $2.50 per 1,000 calls. */
  file_search_call: 2_500,
  /** Code interpreter: $0.03 per container session. */
  code_interpreter_call: 30_000,
  /** Image generation: up to $0.25 per image (high quality, largest size). */
  image_generation_call: 250_000,
};

/** The output item type that a built-in tool of this type produces when called. */
const CALL_OF_TOOL: Readonly<Record<string, string>> = {
  web_search: "web_search_call",
  web_search_preview: "web_search_call",
  file_search: "file_search_call",
  code_interpreter: "code_interpreter_call",
  image_generation: "image_generation_call",
};

/**
 * A name's entry in one of the tables above, by own entry only: an item named
 * `constructor` read Object's function, and adding it made the sum text (every fee lost).
 */
function entry<T>(table: Readonly<Record<string, T>>, name: unknown): T | undefined {
  return typeof name === "string" && Object.hasOwn(table, name) ? table[name] : undefined;
}

/** The fees of the tool calls among an answer's output items. */
export function toolCallFees(output: unknown): number {
  if (!Array.isArray(output)) return 0;
  let fees = 0;
  for (const item of output) fees += entry(TOOL_CALL_FEES, (item as { type?: unknown } | null)?.type) ?? 0;
  return fees;
}

/**
 * What to hold for a request's built-in tools before it is sent: each declared tool's
 * fee once per call it may make (`max_tool_calls`, else once). A model that calls a
 * tool more often than that is charged in full afterwards; the reservation bounds
 * the common case, as the prompt estimate does.
 */
export function reservedToolFees(tools: unknown, maxToolCalls: unknown): number {
  if (!Array.isArray(tools)) return 0;
  const calls = typeof maxToolCalls === "number" && maxToolCalls > 0 ? maxToolCalls : 1;
  let fees = 0;
  for (const tool of tools) fees += entry(TOOL_CALL_FEES, entry(CALL_OF_TOOL, (tool as { type?: unknown } | null)?.type)) ?? 0;
  return fees * calls;
}
