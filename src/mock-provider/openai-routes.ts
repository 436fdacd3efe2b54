/** The mock provider's chat-completions family: completions (plain and SSE), embeddings, models. */
import { simulateChat, simulateEmbedding, streamPieces, type SimulatedChatRequest } from "../simulator/chat-simulator.ts";

const MODELS = ["gpt-4o", "gpt-4o-mini", "text-embedding-3-small", "mock-model"];
const encoder = new TextEncoder();

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function openAiError(status: number, message: string, type = "invalid_request_error") {
  return json({ error: { message, type, code: null, param: null } }, status);
}

export function chatCompletion(req: SimulatedChatRequest & { stream?: boolean; stream_options?: { include_usage?: boolean } }, delayMs: number): Response {
  if (!req || typeof req.model !== "string" || !Array.isArray(req.messages)) return openAiError(400, "model and messages are required");
  const answer = simulateChat(req);
  const id = `chatcmpl-mock${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: answer.promptTokens, completion_tokens: answer.completionTokens, total_tokens: answer.promptTokens + answer.completionTokens };
  if (!req.stream) {
    return json({
      id,
      object: "chat.completion",
      created,
      model: req.model,
      choices: [{ index: 0, message: { role: "assistant", content: answer.text }, finish_reason: answer.finishReason }],
      usage,
    });
  }
  const pieces = streamPieces(answer);
  const chunk = (delta: object, finish: string | null, extra: object = {}) =>
    encoder.encode(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: req.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(chunk({ role: "assistant", content: "" }, null));
      for (const [i, piece] of pieces.entries()) {
        if (delayMs > 0) await Bun.sleep(delayMs / pieces.length);
        controller.enqueue(chunk({ content: piece }, i === pieces.length - 1 ? answer.finishReason : null));
      }
      if (req.stream_options?.include_usage) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: req.model, choices: [], usage })}\n\n`));
      }
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

export function embeddings(req: { model?: string; input?: unknown; dimensions?: number; encoding_format?: string }): Response {
  const inputs = typeof req?.input === "string" ? [req.input] : Array.isArray(req?.input) ? req.input.map(String) : null;
  if (!req?.model || !inputs) return openAiError(400, "model and input are required");
  const dims = req.dimensions ?? 1536;
  const data = inputs.map((text, index) => {
    const vector = simulateEmbedding(text, dims);
    const embedding = req.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  const tokens = inputs.reduce((n, t) => n + Math.max(1, Math.ceil(t.length / 4)), 0);
  return json({ object: "list", model: req.model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

export function models(): Response {
  return json({ object: "list", data: MODELS.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "mock" })) });
}
