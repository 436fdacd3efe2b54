/**
 * A messages-format answer as a chat completion: text blocks become `content`,
 * `tool_use` blocks become `tool_calls`, stop reasons map to finish reasons, and
 * usage is renamed. Streams are translated event by event into chat chunks, ending
 * with the usage chunk and `data: [DONE]`.
 */
import { encodeSse, type SseEvent, SseDecoder } from "../lib/sse.ts";
import { promptTokensOf } from "../providers/anthropic/messages-wire.ts";

const FINISH: Record<string, string> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
  pause_turn: "stop",
};

export function finishReason(stop: unknown): string | null {
  return typeof stop === "string" ? (FINISH[stop] ?? "stop") : null;
}

interface MessagesAnswer {
  id?: string;
  model?: string;
  content?: { type: string; text?: string; id?: string; name?: string; input?: unknown }[];
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number };
}

export function messagesToChatCompletion(answer: MessagesAnswer): Record<string, unknown> {
  const blocks = answer.content ?? [];
  const text = blocks
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");
  const calls = blocks
    .filter((b) => b.type === "tool_use")
    .map((b) => ({ id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }));
  const prompt = promptTokensOf(answer.usage ?? {});
  const completion = answer.usage?.output_tokens ?? 0;
  return {
    id: answer.id ?? "chatcmpl-translated",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: answer.model,
    choices: [
      {
        index: 0,
        // `refusal` and `logprobs` are required members (null here), as OpenAI writes them.
        message: {
          role: "assistant",
          content: text || (calls.length ? null : ""),
          refusal: null,
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: finishReason(answer.stop_reason),
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/**
 * A messages event stream (SSE bytes) as a chat-completions chunk stream (SSE bytes).
 * The usage chunk (`choices: []`) is always written; the proxy removes it when the
 * caller did not ask for usage, exactly as for native chat streams.
 */
export function messagesStreamToChat(maxEventChars?: number): TransformStream<Uint8Array, Uint8Array> {
  // Bounded as the tap after it is (GW_MAX_ANSWER_BYTES): the provider's events are held here first.
  const decoder = new SseDecoder(maxEventChars);
  const created = Math.floor(Date.now() / 1000);
  let id = "chatcmpl-translated";
  let model = "";
  let prompt = 0;
  let completion = 0;
  /** Index of each tool_use content block among the tool calls. */
  const toolIndex = new Map<number, number>();
  const chunk = (choices: unknown[], extra: object = {}) =>
    encodeSse({ data: JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra }) });
  const delta = (d: object, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);

  const translate = (e: SseEvent, out: TransformStreamDefaultController<Uint8Array>) => {
    let data: Record<string, any>;
    try {
      data = JSON.parse(e.data);
    } catch {
      return;
    }
    switch (e.event ?? data.type) {
      case "message_start":
        id = data.message?.id ?? id;
        model = data.message?.model ?? model;
        prompt = promptTokensOf(data.message?.usage ?? {});
        completion = data.message?.usage?.output_tokens ?? 0;
        out.enqueue(delta({ role: "assistant", content: "" }));
        break;
      case "content_block_start":
        if (data.content_block?.type === "tool_use") {
          const index = toolIndex.size;
          toolIndex.set(data.index, index);
          out.enqueue(
            delta({
              tool_calls: [
                { index, id: data.content_block.id, type: "function", function: { name: data.content_block.name, arguments: "" } },
              ],
            }),
          );
        }
        break;
      case "content_block_delta":
        if (data.delta?.type === "text_delta") out.enqueue(delta({ content: data.delta.text }));
        else if (data.delta?.type === "input_json_delta")
          out.enqueue(delta({ tool_calls: [{ index: toolIndex.get(data.index) ?? 0, function: { arguments: data.delta.partial_json } }] }));
        break;
      case "message_delta":
        if (data.usage?.output_tokens !== undefined) completion = data.usage.output_tokens;
        out.enqueue(delta({}, finishReason(data.delta?.stop_reason) ?? "stop"));
        break;
      case "message_stop":
        out.enqueue(chunk([], { usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }));
        out.enqueue(encodeSse({ data: "[DONE]" }));
        break;
      case "error":
        out.enqueue(
          encodeSse({
            data: JSON.stringify({
              error: {
                message: data.error?.message ?? "provider error",
                type: data.error?.type ?? "api_error",
                code: "provider_error",
                param: null,
              },
            }),
          }),
        );
        break;
    }
  };
  return new TransformStream({
    transform(bytes, out) {
      for (const b of decoder.push(bytes)) if (b.event) translate(b.event, out);
    },
    flush(out) {
      for (const b of decoder.end().blocks) if (b.event) translate(b.event, out);
    },
  });
}
