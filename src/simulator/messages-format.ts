/**
 * The simulator's answers in the messages wire format: a message, its event stream
 * (message_start ... message_stop, with tool_use when tools are given), and the same
 * events as the cloud platform's binary event stream. Shared by the mock provider
 * and by sandbox keys.
 */
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { encodeSse } from "../lib/sse.ts";
import { argumentPieces, simulateChat, type SimulatedAnswer, streamPieces, wordsFor } from "./chat-simulator.ts";
import { messagesAsChat, type SimulatedMessagesRequest } from "./messages-request.ts";
import type { SimulatedCache } from "./openai-format.ts";
import { pacedStream, waitFor } from "./pacing.ts";
import { type SimulatedThinking, simulatedThinking, thinkingBlock, thinkingDeltas } from "./thinking-block.ts";

export type { SimulatedMessagesRequest } from "./messages-request.ts";

interface MessagesEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface SimulatedMessagesOptions {
  /** The model the answer claims to be from (the request's by default). */
  answeredModel?: string;
  /** Spread across the stream's delta events, or waited before a plain answer. */
  delayMs?: number;
  /** How many delta events carry the answer's text (or a tool call's input); one a word when unset. */
  streamChunks?: number;
  /** Prompt-cache tokens to report beside the counted prompt (the mock provider's `cache-` steer). */
  cache?: SimulatedCache;
}

/** The input counts as the vendor writes them: `input_tokens` leaves the cache's tokens out, the writes split by lifetime. */
function inputUsage(a: SimulatedAnswer, cache?: SimulatedCache) {
  if (!cache) return { input_tokens: a.promptTokens };
  return {
    input_tokens: a.promptTokens,
    cache_read_input_tokens: cache.read,
    cache_creation_input_tokens: cache.write,
    cache_creation: { ephemeral_5m_input_tokens: cache.write - cache.writeLong, ephemeral_1h_input_tokens: cache.writeLong },
  };
}

const STOP = { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use" } as const;

/** Why the answer ended, in the vendor's words: a caller's stop sequence is named. */
const stopOf = (a: SimulatedAnswer) =>
  a.stopSequence === undefined
    ? { stop_reason: STOP[a.finishReason], stop_sequence: null }
    : { stop_reason: "stop_sequence", stop_sequence: a.stopSequence };

function answerFor(req: SimulatedMessagesRequest, streamChunks?: number): SimulatedAnswer {
  return simulateChat(messagesAsChat(req), wordsFor(streamChunks));
}

function contentOf(a: SimulatedAnswer, thinking: SimulatedThinking | null) {
  const answer = a.toolCalls.length
    ? a.toolCalls.map((c) => ({ type: "tool_use", id: `toolu_${c.ref}`, name: c.name, input: JSON.parse(c.arguments) }))
    : [{ type: "text", text: a.text }];
  return thinking ? [thinkingBlock(thinking), ...answer] : answer;
}

/** The answer's output tokens: its text or tool calls, and its thinking when there is some. */
const outputTokens = (a: SimulatedAnswer, thinking: SimulatedThinking | null) => a.completionTokens + (thinking?.tokens ?? 0);

export function simulatedMessage(
  req: SimulatedMessagesRequest,
  answeredModel?: string,
  streamChunks?: number,
  cache?: SimulatedCache,
): Record<string, unknown> {
  const a = answerFor(req, streamChunks);
  const thinking = simulatedThinking(req, a.ref);
  return {
    id: `msg_${a.ref}`,
    type: "message",
    role: "assistant",
    model: answeredModel ?? req.model,
    content: contentOf(a, thinking),
    ...stopOf(a),
    usage: { ...inputUsage(a, cache), output_tokens: outputTokens(a, thinking) },
  };
}

/** The content blocks' events: each block's start, its deltas, its stop. */
function blockEvents(a: SimulatedAnswer, thinking: SimulatedThinking | null, streamChunks?: number): MessagesEvent[] {
  const events: MessagesEvent[] = [];
  const block = (index: number, content_block: object, deltas: object[]) => {
    events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block } });
    if (index === 0) events.push({ event: "ping", data: { type: "ping" } });
    for (const delta of deltas) events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } });
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  };
  // The thinking block comes first, and the answer's blocks are numbered after it.
  const first = thinking ? 1 : 0;
  if (thinking) {
    const { start, deltas } = thinkingDeltas(thinking, streamChunks);
    block(0, start, deltas);
  }
  if (a.toolCalls.length === 0)
    block(
      first,
      { type: "text", text: "" },
      streamPieces(a, streamChunks).map((text) => ({ type: "text_delta", text })),
    );
  a.toolCalls.forEach((c, index) =>
    block(
      first + index,
      { type: "tool_use", id: `toolu_${c.ref}`, name: c.name, input: {} },
      argumentPieces(c, streamChunks).map((partial_json) => ({ type: "input_json_delta", partial_json })),
    ),
  );
  return events;
}

export function simulatedMessageEvents(
  req: SimulatedMessagesRequest,
  answeredModel?: string,
  streamChunks?: number,
  cache?: SimulatedCache,
): MessagesEvent[] {
  const a = answerFor(req, streamChunks);
  const thinking = simulatedThinking(req, a.ref);
  const start: MessagesEvent = {
    event: "message_start",
    data: {
      type: "message_start",
      message: {
        id: `msg_${a.ref}`,
        type: "message",
        role: "assistant",
        model: answeredModel ?? req.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...inputUsage(a, cache), output_tokens: 1 },
      },
    },
  };
  const end: MessagesEvent[] = [
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: stopOf(a),
        usage: { output_tokens: outputTokens(a, thinking) },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
  return [start, ...blockEvents(a, thinking, streamChunks), ...end];
}

/** The encoded events as a paced stream: the delay is spread across the delta events. */
function pacedEvents(events: MessagesEvent[], encoded: Uint8Array[], delayMs: number): ReadableStream<Uint8Array> {
  const first = events.findIndex((e) => e.event === "content_block_delta");
  const last = events.findLastIndex((e) => e.event === "content_block_delta");
  return pacedStream(encoded.slice(0, first), encoded.slice(first, last + 1), encoded.slice(last + 1), delayMs);
}

export async function simulatedMessagesResponse(req: SimulatedMessagesRequest, opts: SimulatedMessagesOptions = {}): Promise<Response> {
  if (!req.stream) {
    await waitFor(opts.delayMs ?? 0);
    return Response.json(simulatedMessage(req, opts.answeredModel, opts.streamChunks, opts.cache));
  }
  const events = simulatedMessageEvents(req, opts.answeredModel, opts.streamChunks, opts.cache);
  const encoded = events.map((e) => encodeSse({ event: e.event, data: JSON.stringify(e.data) }));
  return new Response(pacedEvents(events, encoded, opts.delayMs ?? 0), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** The events as the platform sends them: binary frames whose payload is `{"bytes": base64(event JSON)}`. */
export function platformFrames(events: MessagesEvent[]): Uint8Array[] {
  return events.map((e) =>
    codec.encode({
      headers: {
        ":event-type": { type: "string", value: "chunk" },
        ":content-type": { type: "string", value: "application/json" },
        ":message-type": { type: "string", value: "event" },
      },
      body: fromUtf8(JSON.stringify({ bytes: Buffer.from(JSON.stringify(e.data)).toString("base64") })),
    }),
  );
}

export function simulatedPlatformStream(req: SimulatedMessagesRequest, opts: SimulatedMessagesOptions = {}): Response {
  const events = simulatedMessageEvents(req, opts.answeredModel, opts.streamChunks, opts.cache);
  return new Response(pacedEvents(events, platformFrames(events), opts.delayMs ?? 0), {
    headers: { "content-type": "application/vnd.amazon.eventstream" },
  });
}
