/**
 * A deterministic stand-in for a chat model: the same request always gets the same
 * answer, with usage counted the way a provider would. It answers as a careful model
 * would: tool calls chosen and filled from the tools' schemas (tool-calls.ts), a text
 * answer that uses the tool results once they are in, JSON that validates against the
 * requested schema (json-values.ts), and otherwise a short canned reply. It backs
 * `gateway mock-provider` (benchmarks, tests, trying the gateway without keys) and
 * sandbox (`gw_test_`) keys.
 */
import { countTextTokens } from "../lib/token-estimate.ts";
import { idSuffix, requestKey, seedOf } from "./answer-ids.ts";
import { type ConversationState, readConversation, type SimulatedChatRequest, textOf } from "./conversation.ts";
import { valueFor } from "./json-values.ts";
import { cutAtStop } from "./stop-sequences.ts";
import { splitPieces } from "./stream-pieces.ts";
import { plannedCalls, type SimulatedToolCall } from "./tool-calls.ts";

export type { SimulatedChatRequest } from "./conversation.ts";
export type { SimulatedToolCall } from "./tool-calls.ts";

export interface SimulatedAnswer {
  /** The answer's own id, without its format's prefix: the same for the same request. */
  ref: string;
  text: string;
  toolCalls: SimulatedToolCall[];
  promptTokens: number;
  completionTokens: number;
  finishReason: "stop" | "length" | "tool_calls";
  /** The caller's stop sequence the text ended before, when one did (stop-sequences.ts). */
  stopSequence?: string;
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

/** The longest tool result quoted back in an answer. */
const QUOTED = 300;

/** Text that uses the tool results, as a model's answer after its tool calls. */
function fromResults(state: ConversationState): string {
  const quoted = state.results.map((r) => {
    const text = r.text.trim().replace(/\s+/g, " ");
    return `${r.name} returned: ${text.length > QUOTED ? `${text.slice(0, QUOTED)}...` : text}`;
  });
  return `Based on the tool results, ${quoted.join("; ")}.`;
}

/** The JSON the request asks for: an instance of its schema, or an object in JSON mode. */
function structured(req: SimulatedChatRequest, state: ConversationState, key: string): string | null {
  const format = req.response_format;
  const grounds = [state.ask, ...state.results.map((r) => r.text)].join(" ");
  if (format?.type === "json_schema") return JSON.stringify(valueFor(format.json_schema?.schema ?? {}, seedOf(key, "json"), grounds));
  if (format?.type === "json_object")
    return JSON.stringify({ answer: state.results.length ? fromResults(state) : cannedWords(grounds.length, ANSWER_WORDS).join(" ") });
  return null;
}

function cannedWords(offset: number, words: number): string[] {
  const all: string[] = [];
  for (let i = 0; i < words; i++) all.push(WORDS[(i + offset) % WORDS.length] as string);
  return all;
}

export function simulateChat(req: SimulatedChatRequest, words = ANSWER_WORDS): SimulatedAnswer {
  const state = readConversation(req.messages);
  const key = requestKey([req.model, req.messages, req.tools, req.tool_choice, req.parallel_tool_calls, req.response_format]);
  const ref = idSuffix(key, "answer");
  const prompt = req.messages.map((m) => textOf(m.content)).join("\n");
  const promptTokens = Math.max(1, countTextTokens(prompt));
  const calls = plannedCalls(req, state, key);
  if (calls.length > 0) {
    const completionTokens = calls.reduce((n, c) => n + countTextTokens(c.name) + countTextTokens(c.arguments) + 5, 0);
    return { ref, text: "", toolCalls: calls, promptTokens, completionTokens, finishReason: "tool_calls" };
  }
  const json = structured(req, state, key);
  if (json !== null) return { ref, text: json, toolCalls: [], promptTokens, completionTokens: countTextTokens(json), finishReason: "stop" };
  const all = state.results.length ? splitPieces(fromResults(state)) : cannedWords(prompt.length, words);
  const limit = req.max_tokens ?? req.max_completion_tokens ?? Number.POSITIVE_INFINITY;
  const kept = all.slice(0, Math.max(1, Math.min(all.length, limit)));
  const text = state.results.length ? kept.join("") : kept.join(" ");
  const stopped = cutAtStop(text, req.stop);
  if (stopped) {
    const completionTokens = stopped.text.split(" ").filter(Boolean).length;
    return { ref, text: stopped.text, toolCalls: [], promptTokens, completionTokens, finishReason: "stop", stopSequence: stopped.sequence };
  }
  return {
    ref,
    text,
    toolCalls: [],
    promptTokens,
    completionTokens: kept.length,
    finishReason: kept.length < all.length ? "length" : "stop",
  };
}

/** The answer's text as stream pieces: one a word (or one whole), or `chunks` of them. */
export function streamPieces(answer: SimulatedAnswer, chunks?: number): string[] {
  return splitPieces(answer.text, chunks);
}

/** A tool call's arguments as stream pieces: one whole, or `chunks` of them. */
export function argumentPieces(call: SimulatedToolCall, chunks?: number): string[] {
  return chunks === undefined ? [call.arguments] : splitPieces(call.arguments, chunks);
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
