/**
 * A deterministic stand-in for a chat model: the same request always gets the same
 * answer, with usage counted the way a provider would. Given tools, it calls the
 * first one. It backs `gateway mock-provider` (benchmarks, tests, trying the gateway
 * without keys) and sandbox (`gw_test_`) keys.
 */
import { countTextTokens } from "../lib/token-estimate.ts";
import { splitPieces } from "./stream-pieces.ts";

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
  if (Array.isArray(content))
    return content.map((p) => (typeof p === "object" && p && "text" in p ? String((p as { text: unknown }).text) : "")).join(" ");
  return "";
}

const WORDS = [
  "The",
  "gateway",
  "forwarded",
  "this",
  "request",
  "and",
  "the",
  "simulated",
  "model",
  "answered",
  "it",
  "deterministically",
  "with",
  "a",
  "short",
  "reply",
  "about",
  "your",
  "message",
  ".",
];

/** How many words an answer has, unless a stream needs more pieces than that. */
export const ANSWER_WORDS = 20;

export function simulateChat(req: SimulatedChatRequest, words = ANSWER_WORDS): SimulatedAnswer {
  const prompt = req.messages.map((m) => textOf(m.content)).join("\n");
  const promptTokens = Math.max(1, countTextTokens(prompt));
  const tool = req.tool_choice === "none" ? undefined : req.tools?.find((t) => t.function?.name);
  if (tool?.function?.name) {
    const args = JSON.stringify({ query: prompt.slice(0, 40) });
    return {
      text: "",
      toolCall: { id: `call_${promptTokens}`, name: tool.function.name, arguments: args },
      promptTokens,
      completionTokens: countTextTokens(args) + 5,
      finishReason: "tool_calls",
    };
  }
  const all: string[] = [];
  for (let i = 0; i < words; i++) all.push(WORDS[(i + prompt.length) % WORDS.length] as string);
  const limit = req.max_tokens ?? Number.POSITIVE_INFINITY;
  const kept = all.slice(0, Math.max(1, Math.min(all.length, limit)));
  return {
    text: kept.join(" "),
    toolCall: null,
    promptTokens,
    completionTokens: kept.length,
    finishReason: kept.length < all.length ? "length" : "stop",
  };
}

/** The answer's text, or its tool call's arguments, as stream pieces: one a word (or one whole), or `chunks` of them. */
export function streamPieces(answer: SimulatedAnswer, chunks?: number): string[] {
  if (answer.toolCall) return chunks === undefined ? [answer.toolCall.arguments] : splitPieces(answer.toolCall.arguments, chunks);
  return splitPieces(answer.text, chunks);
}

/** The word count that gives a stream of `chunks` pieces a word each (never fewer than usual). */
export const wordsFor = (chunks: number | undefined) => Math.max(ANSWER_WORDS, chunks ?? 0);

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
