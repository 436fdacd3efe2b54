/**
 * A deterministic stand-in for a chat model: the same request always gets the same
 * answer, with usage counted the way a provider would. Given tools, it calls the
 * first one. It backs `gateway mock-provider` (benchmarks, tests, trying the gateway
 * without keys) and sandbox (`gw_test_`) keys.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

export interface SimulatedChatRequest {
  model: string;
  messages: { role: string; content?: unknown }[];
  max_tokens?: number | null;
  tools?: { type?: string; function?: { name?: string } }[];
  tool_choice?: unknown;
}

export interface SimulatedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface SimulatedAnswer {
  text: string;
  toolCall: SimulatedToolCall | null;
  promptTokens: number;
  completionTokens: number;
  finishReason: "stop" | "length" | "tool_calls";
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "object" && p && "text" in p ? String((p as { text: unknown }).text) : "")).join(" ");
  return "";
}

const WORDS = ["The", "gateway", "forwarded", "this", "request", "and", "the", "simulated", "model", "answered", "it", "deterministically", "with", "a", "short", "reply", "about", "your", "message", "."];

export function simulateChat(req: SimulatedChatRequest, words = 20): SimulatedAnswer {
  const prompt = req.messages.map((m) => textOf(m.content)).join("\n");
  const promptTokens = Math.max(1, countTokens(prompt));
  const tool = req.tool_choice === "none" ? undefined : req.tools?.find((t) => t.function?.name);
  if (tool?.function?.name) {
    const args = JSON.stringify({ query: prompt.slice(0, 40) });
    return { text: "", toolCall: { id: `call_${promptTokens}`, name: tool.function.name, arguments: args }, promptTokens, completionTokens: countTokens(args) + 5, finishReason: "tool_calls" };
  }
  const all: string[] = [];
  for (let i = 0; i < words; i++) all.push(WORDS[(i + prompt.length) % WORDS.length] as string);
  const limit = req.max_tokens ?? Number.POSITIVE_INFINITY;
  const kept = all.slice(0, Math.max(1, Math.min(all.length, limit)));
  return { text: kept.join(" "), toolCall: null, promptTokens, completionTokens: kept.length, finishReason: kept.length < all.length ? "length" : "stop" };
}

/** The answer's text as stream pieces, one a chunk. */
export function streamPieces(answer: SimulatedAnswer): string[] {
  return answer.text.split(" ").map((w, i) => (i === 0 ? w : ` ${w}`));
}

/** A deterministic unit vector for an embedding input. */
export function simulateEmbedding(input: string, dimensions = 1536): number[] {
  const v = new Array<number>(dimensions);
  let seed = 2166136261;
  for (let i = 0; i < input.length; i++) seed = Math.imul(seed ^ input.charCodeAt(i), 16777619);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) ^ i;
    const x = ((seed >>> 0) / 4294967296) * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) v[i] = (v[i] as number) * scale;
  return v;
}
