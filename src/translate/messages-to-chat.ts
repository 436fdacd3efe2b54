/**
 * A messages-format answer as a chat completion: text blocks become `content`,
 * `tool_use` blocks become `tool_calls`, stop reasons map to finish reasons, and
 * usage is renamed. Streams are translated event by event into chat chunks, ending
 * with the usage chunk and `data: [DONE]`.
 */
import { errorBody } from "../lib/error-bodies.ts";
import { ApiError } from "../lib/errors.ts";
import { encodeSse, type SseEvent, SseDecoder } from "../lib/sse.ts";
import { cacheOf, type MessagesUsage, promptTokensOf } from "../providers/anthropic/messages-wire.ts";
import type { CallUsage } from "../providers/wire-format.ts";

const FINISH: Record<string, string> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
  pause_turn: "stop",
  model_context_window_exceeded: "length",
};

export function finishReason(stop: unknown): string | null {
  // By own entry: a stop reason named `constructor` would be Object's function, dropped from the JSON.
  return typeof stop === "string" ? (Object.hasOwn(FINISH, stop) ? (FINISH[stop] as string) : "stop") : null;
}

interface MessagesAnswer {
  id?: string;
  model?: string;
  content?: { type: string; text?: string; id?: string; name?: string; input?: unknown }[];
  stop_reason?: string | null;
  usage?: MessagesUsage;
}

/**
 * Chat's usage from the messages counts: cache reads and writes are in the prompt, and
 * named as chat names them (`cached_tokens`; `cache_write_tokens`, as OpenRouter writes
 * them), so the call is priced from them and the caller sees them.
 */
function chatUsage(usage: MessagesUsage, completion: number): Record<string, unknown> {
  const prompt = promptTokensOf(usage);
  const cache = cacheOf(usage);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cache
      ? { prompt_tokens_details: { cached_tokens: cache.read, ...(cache.write > 0 ? { cache_write_tokens: cache.write } : {}) } }
      : {}),
  };
}

/** A provider's answer in a shape no messages provider writes: its 502, not a crash of the translation. */
function oddShape(what: string): ApiError {
  return new ApiError(502, "provider_error", `The provider's messages answer could not be translated: ${what}.`);
}

/** The answer's content blocks, each an object with a string type; text blocks with string text. */
function blocksOf(content: unknown): NonNullable<MessagesAnswer["content"]> {
  if (content === undefined || content === null) return [];
  if (!Array.isArray(content)) throw oddShape("content is not a list of blocks");
  for (const b of content) {
    if (typeof b !== "object" || b === null || typeof b.type !== "string") throw oddShape("a content block is not an object with a type");
    if (b.type === "text" && typeof b.text !== "string") throw oddShape("a text block's text is not a string");
  }
  return content;
}

export function messagesToChatCompletion(answer: MessagesAnswer): Record<string, unknown> {
  const blocks = blocksOf(answer.content);
  const text = blocks
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");
  const calls = blocks
    .filter((b) => b.type === "tool_use")
    .map((b) => ({ id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }));
  const usage = typeof answer.usage === "object" && answer.usage !== null ? answer.usage : {};
  const completion = typeof usage.output_tokens === "number" && usage.output_tokens > 0 ? usage.output_tokens : 0;
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
    usage: chatUsage(usage, completion),
  };
}

/** The end a messages stream did not reach (no message_stop, no error event): the caller's chat error, as a cut stream's. */
const ENDED_EARLY = new ApiError(502, "stream_interrupted", "The provider's stream ended before its last event; the answer is incomplete.");

/**
 * A messages event stream (SSE bytes) as a chat-completions chunk stream (SSE bytes).
 * The usage chunk (`choices: []`) is always written, also when the provider breaks the
 * stream off (an error event, or an end without message_stop): its prompt count came
 * first, on message_start, and is what the call is charged. The proxy removes that
 * chunk when the caller did not ask for usage, exactly as for native chat streams.
 * `counts`, when given, is kept up to date with the provider's token counts as they come
 * (the model is left to the reader of the translated stream, which checks it);
 * `interrupted`, when given, is told when the provider's stream ended before its last event.
 */
export function messagesStreamToChat(
  maxEventChars?: number,
  counts?: CallUsage,
  interrupted?: () => void,
): TransformStream<Uint8Array, Uint8Array> {
  // Bounded as the tap after it is (GW_MAX_ANSWER_BYTES): the provider's events are held here first.
  const decoder = new SseDecoder(maxEventChars);
  const created = Math.floor(Date.now() / 1000);
  let id = "chatcmpl-translated";
  let model = "";
  let usage: MessagesUsage = {};
  let completion = 0;
  /** Text and argument pieces passed on: each at least a token, what a broken-off answer is charged at least. */
  let pieces = 0;
  let ended = false;
  /** message_delta gave the stop reason: the answer is whole, whether or not message_stop follows. */
  let stopped = false;
  /** Each open tool_use content block: its index among the tool calls, and whether any of its arguments came. */
  const toolIndex = new Map<unknown, { index: number; args: boolean }>();
  let calls = 0;
  const chunk = (choices: unknown[], extra: object = {}) =>
    encodeSse({ data: JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra }) });
  const delta = (d: object, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);
  const usageChunk = (atLeast = 0) => chunk([], { usage: chatUsage(usage, Math.max(completion, atLeast)) });
  const errorChunk = (err: ApiError) => encodeSse({ data: JSON.stringify(errorBody("openai", err)) });
  /** Later counts replace earlier ones (message_delta's are cumulative); a count not given keeps the one before. */
  const takeUsage = (u: unknown) => {
    if (typeof u !== "object" || u === null) return;
    const next = u as MessagesUsage;
    if (promptTokensOf(next) >= promptTokensOf(usage)) usage = { ...usage, ...next };
    if (typeof next.output_tokens === "number") completion = next.output_tokens;
    if (counts) {
      counts.promptTokens = promptTokensOf(usage);
      counts.completionTokens = completion;
      // The cache's parts as the provider split them (the 1-hour writes too, which chat's usage has no member for).
      counts.cache = cacheOf(usage);
    }
  };

  /**
   * A tool call's block ended: one whose input never came in pieces (a tool without
   * parameters) gets `{}`, as the whole answer's has, since chat clients parse the
   * arguments and "" is not JSON.
   */
  const closeCall = (at: unknown, out: TransformStreamDefaultController<Uint8Array>) => {
    const call = toolIndex.get(at);
    if (!call) return;
    toolIndex.delete(at);
    if (!call.args) out.enqueue(delta({ tool_calls: [{ index: call.index, function: { arguments: "{}" } }] }));
  };

  const translate = (e: SseEvent, out: TransformStreamDefaultController<Uint8Array>) => {
    if (ended) return;
    let data: Record<string, any>;
    try {
      data = JSON.parse(e.data);
    } catch {
      return;
    }
    if (typeof data !== "object" || data === null) return;
    switch (e.event ?? data.type) {
      case "message_start":
        if (typeof data.message?.id === "string") id = data.message.id;
        if (typeof data.message?.model === "string") model = data.message.model;
        takeUsage(data.message?.usage);
        out.enqueue(delta({ role: "assistant", content: "" }));
        break;
      case "content_block_start":
        if (data.content_block?.type === "tool_use") {
          const index = calls++;
          toolIndex.set(data.index, { index, args: false });
          out.enqueue(
            delta({
              tool_calls: [
                { index, id: data.content_block.id, type: "function", function: { name: data.content_block.name, arguments: "" } },
              ],
            }),
          );
        } else if (data.content_block?.type === "text" && typeof data.content_block.text === "string" && data.content_block.text !== "") {
          // The vendor opens a text block empty; a server that puts text here is not dropped.
          pieces++;
          out.enqueue(delta({ content: data.content_block.text }));
        }
        break;
      case "content_block_delta":
        if (data.delta?.type === "text_delta" && typeof data.delta.text === "string") {
          pieces++;
          out.enqueue(delta({ content: data.delta.text }));
        } else if (data.delta?.type === "input_json_delta" && typeof data.delta.partial_json === "string") {
          const call = toolIndex.get(data.index);
          if (!call || data.delta.partial_json === "") break;
          pieces++;
          call.args = true;
          out.enqueue(delta({ tool_calls: [{ index: call.index, function: { arguments: data.delta.partial_json } }] }));
        }
        break;
      case "content_block_stop":
        closeCall(data.index, out);
        break;
      case "message_delta":
        for (const at of toolIndex.keys()) closeCall(at, out);
        takeUsage(data.usage);
        if (typeof data.delta?.stop_reason === "string") stopped = true;
        out.enqueue(delta({}, finishReason(data.delta?.stop_reason) ?? "stop"));
        break;
      case "message_stop":
        ended = true;
        out.enqueue(usageChunk());
        out.enqueue(encodeSse({ data: "[DONE]" }));
        break;
      case "error":
        ended = true;
        // The usage so far first: the prompt was read, and the pieces that passed were made.
        out.enqueue(usageChunk(pieces));
        out.enqueue(
          encodeSse({
            data: JSON.stringify({
              error: {
                message: typeof data.error?.message === "string" ? data.error.message : "provider error",
                type: typeof data.error?.type === "string" ? data.error.type : "api_error",
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
      if (ended) return;
      // Its stop reason came, so the answer is whole: only the closing event is missing, as with some proxies.
      if (stopped) {
        out.enqueue(usageChunk());
        out.enqueue(encodeSse({ data: "[DONE]" }));
        return;
      }
      // The provider stopped before its answer was whole: the caller is told, and the call charged
      // what was seen and recorded as interrupted (told before the error chunk reaches the tap).
      interrupted?.();
      out.enqueue(usageChunk(pieces));
      out.enqueue(errorChunk(ENDED_EARLY));
    },
  });
}
