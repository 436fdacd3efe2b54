/**
 * A deterministic stand-in for a chat model: the same request always gets the same
 * answer, with usage counted the way a provider would. It backs `gateway
 * mock-provider` (benchmarks, tests, trying the gateway without keys) and, later,
 * sandbox (`gw_test_`) keys.
 */

export interface SimulatedChatRequest {
  model: string;
  messages: { role: string; content?: unknown }[];
  max_tokens?: number;
}

export interface SimulatedAnswer {
  text: string;
  promptTokens: number;
  completionTokens: number;
  finishReason: "stop" | "length";
}

/** A rough token count (4 characters a token), enough for realistic usage numbers. */
export function approximateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "object" && p && "text" in p ? String((p as { text: unknown }).text) : "")).join(" ");
  return "";
}

const WORDS = ["The", "gateway", "forwarded", "this", "request", "and", "the", "simulated", "model", "answered", "it", "deterministically", "with", "a", "short", "reply", "about", "your", "message", "."];

export function simulateChat(req: SimulatedChatRequest, chunks = 20): SimulatedAnswer {
  const prompt = req.messages.map((m) => textOf(m.content)).join("\n");
  const words: string[] = [];
  for (let i = 0; i < chunks; i++) words.push(WORDS[(i + prompt.length) % WORDS.length] as string);
  const limit = req.max_tokens ?? Infinity;
  const kept = words.slice(0, Math.max(1, Math.min(words.length, limit)));
  return {
    text: kept.join(" "),
    promptTokens: approximateTokens(prompt),
    completionTokens: kept.length,
    finishReason: kept.length < words.length ? "length" : "stop",
  };
}

/** The answer as the stream's content pieces, one a chunk. */
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
