/**
 * The simulator's answers in the chat-completions wire format: a completion, an SSE
 * stream (with the usage chunk when asked), embeddings, a model list. Shared by the
 * mock provider and the sandbox for test keys.
 */
import { encodeSse } from "../lib/sse.ts";
import { countTextTokens } from "../lib/token-estimate.ts";
import {
  argumentPieces,
  simulateChat,
  simulateEmbedding,
  type SimulatedAnswer,
  type SimulatedChatRequest,
  streamPieces,
  wordsFor,
} from "./chat-simulator.ts";
import { type LogprobsRequest, logprobsOf } from "./logprobs.ts";
import { pacedStream, waitFor } from "./pacing.ts";

export interface SimulatedChatOptions {
  /** The model the answer claims to be from (the request's by default). */
  answeredModel?: string;
  /** Spread across the stream's chunks, or waited before a plain answer. */
  delayMs?: number;
  /** How many delta chunks carry the answer's text (or a tool call's arguments); one a word when unset. */
  streamChunks?: number;
  /** Prompt-cache tokens to report on top of the counted prompt (the mock provider's `cache-` steer). */
  cache?: SimulatedCache;
  /** The `service_tier` the answer says it was served at, in the body and every chunk (the mock provider's echo); none when unset. */
  serviceTier?: string;
}

/** Tokens a simulated answer reports as read from and written to a prompt cache (`writeLong`: of the writes, the 1-hour ones). */
export interface SimulatedCache {
  read: number;
  write: number;
  writeLong: number;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function openAiError(status: number, message: string, type = "invalid_request_error") {
  return json({ error: { message, type, code: null, param: null } }, status);
}

/** Chat's usage; cache tokens are part of the prompt count, as OpenAI counts them (writes as OpenRouter names them). */
function usageOf(a: SimulatedAnswer, cache?: SimulatedCache, choices = 1) {
  const prompt = a.promptTokens + (cache ? cache.read + cache.write : 0);
  // Every choice is generated, so every choice is billed: OpenAI's completion count is their sum.
  const completion = a.completionTokens * choices;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cache
      ? { prompt_tokens_details: { cached_tokens: cache.read, ...(cache.write > 0 ? { cache_write_tokens: cache.write } : {}) } }
      : {}),
  };
}

const toolCallsOf = (a: SimulatedAnswer) =>
  a.toolCalls.map((c) => ({ id: `call_${c.ref}`, type: "function", function: { name: c.name, arguments: c.arguments } }));

/** As OpenAI writes it: `refusal` and `annotations` always there, `tool_calls` only when made. */
function message(a: SimulatedAnswer) {
  if (a.toolCalls.length === 0) return { role: "assistant", content: a.text, refusal: null, annotations: [] };
  return { role: "assistant", content: null, refusal: null, annotations: [], tool_calls: toolCallsOf(a) };
}

type StreamRequest = SimulatedChatRequest &
  LogprobsRequest & { stream?: boolean; stream_options?: { include_usage?: boolean } | null; n?: number | null };

/** OpenAI's bound on `n`; the gateway's validation refuses less than 1 before a call gets here. */
const MAX_CHOICES = 128;
const choiceCount = (req: StreamRequest) => Math.max(1, Math.min(MAX_CHOICES, Math.floor(req.n ?? 1)));

/**
 * The most pieces (words) a simulated answer writes over all its choices, as a model's
 * output limit bounds its answer. An answer quoting tool results grows with the request;
 * without a bound, `n: 128` with `top_logprobs: 20` turned a sandbox key's request of a
 * few hundred kilobytes into gigabytes of answer (each piece written 128 times, each with
 * 20 alternatives). Past it each choice stops with `length`, as at `max_tokens`.
 */
export const MAX_ANSWER_PIECES = 16_384;

/** The request with each choice's limit no higher than its share of MAX_ANSWER_PIECES. */
function withinBound(req: StreamRequest, choices: number): StreamRequest {
  const share = Math.max(1, Math.floor(MAX_ANSWER_PIECES / choices));
  const asked = req.max_tokens ?? req.max_completion_tokens;
  return typeof asked === "number" && asked <= share ? req : { ...req, max_tokens: share };
}

/** The delta chunks of a tool-call answer: each call's head (id, name), then its arguments in pieces. */
function toolCallDeltas(a: SimulatedAnswer, streamChunks?: number): object[] {
  const deltas: object[] = [];
  a.toolCalls.forEach((c, index) => {
    deltas.push({ tool_calls: [{ index, id: `call_${c.ref}`, type: "function", function: { name: c.name, arguments: "" } }] });
    for (const piece of argumentPieces(c, streamChunks)) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  return deltas;
}

export async function simulatedChatCompletion(req: StreamRequest, opts: SimulatedChatOptions = {}): Promise<Response> {
  const choices = choiceCount(req);
  const answer = simulateChat(withinBound(req, choices), wordsFor(opts.streamChunks));
  const id = `chatcmpl-${answer.ref}`;
  const created = Math.floor(Date.now() / 1000);
  const model = opts.answeredModel ?? req.model;
  const delayMs = opts.delayMs ?? 0;
  const tier = opts.serviceTier === undefined ? {} : { service_tier: opts.serviceTier };
  const calling = answer.toolCalls.length > 0;
  const textPieces = calling ? [] : streamPieces(answer, opts.streamChunks);
  const logprobs = logprobsOf(req, textPieces);
  // `n` answers, as OpenAI gives them: the simulator is deterministic, so each choice is the same answer.
  const indexes = Array.from({ length: choices }, (_, i) => i);
  if (!req.stream) {
    await waitFor(delayMs);
    return json({
      id,
      object: "chat.completion",
      created,
      model,
      choices: indexes.map((index) => ({ index, message: message(answer), logprobs, finish_reason: answer.finishReason })),
      usage: usageOf(answer, opts.cache, indexes.length),
      ...tier,
    });
  }
  const frame = (fields: object) =>
    encodeSse({ data: JSON.stringify({ id, object: "chat.completion.chunk", created, model, ...fields, ...tier }) });
  const chunk = (index: number, delta: object, finish: string | null, lp: object | null = null) =>
    frame({ choices: [{ index, delta, logprobs: lp, finish_reason: finish }] });
  const pieceLogprobs = (i: number) => (logprobs ? { content: logprobs.content.slice(i, i + 1), refusal: null } : null);
  const head = indexes.map((index) => chunk(index, { role: "assistant", content: calling ? null : "", refusal: null }, null));
  const deltas: object[] = calling ? toolCallDeltas(answer, opts.streamChunks) : textPieces.map((content) => ({ content }));
  // The first tool-call delta (its id and name) goes out with the head; the arguments are what is paced.
  const first = calling ? (deltas.shift() as object) : null;
  if (first) head.push(...indexes.map((index) => chunk(index, first, null)));
  // Several choices interleave piece by piece, as OpenAI streams them.
  const pieces = deltas.flatMap((d, i) =>
    indexes.map((index) => chunk(index, d, i === deltas.length - 1 ? answer.finishReason : null, calling ? null : pieceLogprobs(i))),
  );
  const tail = req.stream_options?.include_usage ? [frame({ choices: [], usage: usageOf(answer, opts.cache, indexes.length) })] : [];
  tail.push(encodeSse({ data: "[DONE]" }));
  return new Response(pacedStream(head, pieces, tail, delayMs), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

export function simulatedEmbeddings(
  req: { model: string; input: unknown; dimensions?: number; encoding_format?: string },
  answeredModel?: string,
): Response {
  const inputs =
    typeof req.input === "string"
      ? [req.input]
      : Array.isArray(req.input)
        ? req.input.map((x) => (typeof x === "string" ? x : JSON.stringify(x)))
        : [];
  const dims = req.dimensions ?? 1536;
  const data = inputs.map((text, index) => {
    const vector = simulateEmbedding(text, dims);
    const embedding = req.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  const tokens = inputs.reduce((n, t) => n + Math.max(1, countTextTokens(t)), 0);
  return json({ object: "list", model: answeredModel ?? req.model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

export function simulatedModelList(ids: string[]): Response {
  return json({ object: "list", data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "simulator" })) });
}
