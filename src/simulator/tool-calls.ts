/**
 * Which tools the simulator calls, and with what, as a careful model would: the tool
 * whose name and description share the most words with the ask (the first offered on a
 * tie), with arguments generated from its parameter schema and the ask's words.
 * `tool_choice` is honoured (`none`, `auto`, `required`, a named tool). An ask in steps
 * ("... then ...") takes one tool turn per step; an ask for several things ("A and B",
 * "A, B") gets parallel calls in one turn unless `parallel_tool_calls` is false. With
 * `auto`, once every step has its tool results the answer is text (the loop ends).
 */
import { idSuffix, seedOf } from "./answer-ids.ts";
import type { ConversationState, SimulatedChatRequest, SimulatedTool } from "./conversation.ts";
import { valueFor } from "./json-values.ts";

export interface SimulatedToolCall {
  /** The id without its format's prefix (`call_`, `toolu_`). */
  ref: string;
  name: string;
  arguments: string;
}

const MAX_PARALLEL = 4;
const STEP = /\b(?:and then|then|after that|afterwards|next)\b/i;
const PART = /,|;|\band\b|\balso\b|\bplus\b/i;
const STOPWORDS = new Set([
  "the",
  "a",
  "an",
  "in",
  "on",
  "of",
  "for",
  "to",
  "me",
  "my",
  "is",
  "what",
  "whats",
  "please",
  "and",
  "with",
  "get",
]);

/** Lower-case word stems: camelCase and snake_case split, a plural's `s` dropped. */
function stems(text: string): string[] {
  return (
    text
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  )
    .filter((w) => !STOPWORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w));
}

function score(tool: SimulatedTool, ask: string[]): number {
  const name = new Set(stems(tool.function?.name ?? ""));
  const description = new Set(stems(tool.function?.description ?? ""));
  return ask.reduce((n, w) => n + (name.has(w) ? 2 : description.has(w) ? 1 : 0), 0);
}

/** The best match for `text` among `tools`, or null when no word matches. */
function bestMatch(tools: SimulatedTool[], text: string): SimulatedTool | null {
  const ask = stems(text);
  let best: SimulatedTool | null = null;
  let bestScore = 0;
  for (const t of tools) {
    const s = score(t, ask);
    if (s > bestScore) [best, bestScore] = [t, s];
  }
  return best;
}

const splitOn = (text: string, re: RegExp) =>
  text
    .split(re)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));

/** The named tool of a `tool_choice`, in the chat shape or the Responses one. */
function namedChoice(choice: unknown): string | null {
  if (typeof choice !== "object" || choice === null) return null;
  const c = choice as { name?: unknown; function?: { name?: unknown } };
  const name = c.function?.name ?? c.name;
  return typeof name === "string" ? name : null;
}

/** The calls for this turn (none: answer in text). `key` makes the ids and values this request's own. */
export function plannedCalls(req: SimulatedChatRequest, state: ConversationState, key: string): SimulatedToolCall[] {
  const tools = (req.tools ?? []).filter((t) => typeof t.function?.name === "string" && t.function.name !== "");
  const choice = req.tool_choice ?? "auto";
  if (tools.length === 0 || choice === "none") return [];
  const steps = splitOn(state.ask, STEP);
  const named = namedChoice(choice);
  const forced = named !== null || choice === "required";
  if (!forced && state.toolTurns >= Math.max(1, steps.length)) return [];
  const step = steps[Math.min(state.toolTurns, steps.length - 1)] ?? state.ask;
  const overall = (named ? tools.find((t) => t.function?.name === named) : null) ?? bestMatch(tools, step) ?? (tools[0] as SimulatedTool);
  const parts = req.parallel_tool_calls === false || named ? [step] : splitOn(step, PART).slice(0, MAX_PARALLEL);
  return (parts.length ? parts : [step]).map((part, i) => {
    const tool = named ? overall : (bestMatch(tools, part) ?? overall);
    const parameters = tool.function?.parameters ?? { type: "object", properties: {} };
    const args = valueFor(parameters, seedOf(key, `args-${i}`), part);
    return {
      ref: idSuffix(key, `call-${state.toolTurns}-${i}`),
      name: tool.function?.name as string,
      arguments: JSON.stringify(typeof args === "object" && args !== null ? args : {}),
    };
  });
}
