/**
 * The simulator's answers in the chat-completions wire format: a completion, an SSE
 * stream (with the usage chunk when asked), embeddings, a model list. Shared by the
 * mock provider and the sandbox for test keys.
 */
import { encodeSse } from "../lib/sse.ts";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { simulateChat, simulateEmbedding, type SimulatedAnswer, type SimulatedChatRequest, streamPieces } from "./chat-simulator.ts";

export interface SimulatedChatOptions {
  /** The model the answer claims to be from (the request's by default). */
  answeredModel?: string;
  /** Spread across the stream's chunks, or waited before a plain answer. */
  delayMs?: number;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function openAiError(status: number, message: string, type = "invalid_request_error") {
  return json({ error: { message, type, code: null, param: null } }, status);
}

function usageOf(a: SimulatedAnswer) {
  return { prompt_tokens: a.promptTokens, completion_tokens: a.completionTokens, total_tokens: a.promptTokens + a.completionTokens };
}

function message(a: SimulatedAnswer) {
  if (!a.toolCall) return { role: "assistant", content: a.text };
  return { role: "assistant", content: null, tool_calls: [{ id: a.toolCall.id, type: "function", function: { name: a.toolCall.name, arguments: a.toolCall.arguments } }] };
}

type StreamRequest = SimulatedChatRequest & { stream?: boolean; stream_options?: { include_usage?: boolean } | null };

export async function simulatedChatCompletion(req: StreamRequest, opts: SimulatedChatOptions = {}): Promise<Response> {
  const answer = simulateChat(req);
  const id = `chatcmpl-sim${answer.promptTokens}x${answer.completionTokens}`;
  const created = Math.floor(Date.now() / 1000);
  const model = opts.answeredModel ?? req.model;
  const delayMs = opts.delayMs ?? 0;
  if (!req.stream) {
    if (delayMs > 0) await Bun.sleep(delayMs);
    return json({ id, object: "chat.completion", created, model, choices: [{ index: 0, message: message(answer), finish_reason: answer.finishReason }], usage: usageOf(answer) });
  }
  const chunk = (delta: object, finish: string | null) =>
    encodeSse({ data: JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] }) });
  const deltas: object[] = answer.toolCall
    ? [{ tool_calls: [{ index: 0, id: answer.toolCall.id, type: "function", function: { name: answer.toolCall.name, arguments: "" } }] }, { tool_calls: [{ index: 0, function: { arguments: answer.toolCall.arguments } }] }]
    : streamPieces(answer).map((content) => ({ content }));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(chunk({ role: "assistant", content: answer.toolCall ? null : "" }, null));
      for (const [i, delta] of deltas.entries()) {
        if (delayMs > 0) await Bun.sleep(delayMs / deltas.length);
        controller.enqueue(chunk(delta, i === deltas.length - 1 ? answer.finishReason : null));
      }
      if (req.stream_options?.include_usage) {
        controller.enqueue(encodeSse({ data: JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: usageOf(answer) }) }));
      }
      controller.enqueue(encodeSse({ data: "[DONE]" }));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

export function simulatedEmbeddings(req: { model: string; input: unknown; dimensions?: number; encoding_format?: string }): Response {
  const inputs = typeof req.input === "string" ? [req.input] : Array.isArray(req.input) ? req.input.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : [];
  const dims = req.dimensions ?? 1536;
  const data = inputs.map((text, index) => {
    const vector = simulateEmbedding(text, dims);
    const embedding = req.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  const tokens = inputs.reduce((n, t) => n + Math.max(1, countTokens(t)), 0);
  return json({ object: "list", model: req.model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

export function simulatedModelList(ids: string[]): Response {
  return json({ object: "list", data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "simulator" })) });
}
