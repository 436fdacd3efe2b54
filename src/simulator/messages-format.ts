/**
 * The simulator's answers in the messages wire format: a message, its event stream
 * (message_start ... message_stop, with tool_use when tools are given), and the same
 * events as the cloud platform's binary event stream. Shared by the mock provider
 * and by sandbox keys.
 */
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { encodeSse } from "../lib/sse.ts";
import { simulateChat, type SimulatedAnswer, streamPieces } from "./chat-simulator.ts";

export interface SimulatedMessagesRequest {
  model: string;
  messages: { role: string; content: unknown }[];
  system?: unknown;
  max_tokens?: number;
  tools?: { name?: string }[];
  tool_choice?: { type?: string };
  stream?: boolean;
}

interface MessagesEvent {
  event: string;
  data: Record<string, unknown>;
}

const STOP = { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use" } as const;

function answerFor(req: SimulatedMessagesRequest): SimulatedAnswer {
  const system = typeof req.system === "string" ? [{ role: "system", content: req.system }] : [];
  return simulateChat({
    model: req.model,
    messages: [...system, ...req.messages],
    max_tokens: req.max_tokens,
    tools: req.tools?.map((t) => ({ type: "function", function: { name: t.name } })),
    tool_choice: req.tool_choice?.type === "none" ? "none" : undefined,
  });
}

function contentOf(a: SimulatedAnswer) {
  return a.toolCall ? [{ type: "tool_use", id: `toolu_${a.toolCall.id}`, name: a.toolCall.name, input: JSON.parse(a.toolCall.arguments) }] : [{ type: "text", text: a.text }];
}

export function simulatedMessage(req: SimulatedMessagesRequest, answeredModel?: string): Record<string, unknown> {
  const a = answerFor(req);
  return {
    id: `msg_sim${a.promptTokens}x${a.completionTokens}`,
    type: "message",
    role: "assistant",
    model: answeredModel ?? req.model,
    content: contentOf(a),
    stop_reason: STOP[a.finishReason],
    stop_sequence: null,
    usage: { input_tokens: a.promptTokens, output_tokens: a.completionTokens },
  };
}

export function simulatedMessageEvents(req: SimulatedMessagesRequest, answeredModel?: string): MessagesEvent[] {
  const a = answerFor(req);
  const model = answeredModel ?? req.model;
  const id = `msg_sim${a.promptTokens}x${a.completionTokens}`;
  const events: MessagesEvent[] = [
    { event: "message_start", data: { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: a.promptTokens, output_tokens: 1 } } } },
  ];
  if (a.toolCall) {
    events.push({ event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${a.toolCall.id}`, name: a.toolCall.name, input: {} } } });
    events.push({ event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: a.toolCall.arguments } } });
  } else {
    events.push({ event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } });
    events.push({ event: "ping", data: { type: "ping" } });
    for (const text of streamPieces(a)) events.push({ event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } } });
  }
  events.push({ event: "content_block_stop", data: { type: "content_block_stop", index: 0 } });
  events.push({ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: STOP[a.finishReason], stop_sequence: null }, usage: { output_tokens: a.completionTokens } } });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

/** A stream whose chunks are produced one by one, `delayMs` spread across them. */
function paced(chunks: Uint8Array[], delayMs: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      for (const c of chunks) {
        if (delayMs > 0) await Bun.sleep(delayMs / chunks.length);
        controller.enqueue(c);
      }
      controller.close();
    },
  });
}

export async function simulatedMessagesResponse(req: SimulatedMessagesRequest, opts: { answeredModel?: string; delayMs?: number } = {}): Promise<Response> {
  if (!req.stream) {
    if (opts.delayMs) await Bun.sleep(opts.delayMs);
    return Response.json(simulatedMessage(req, opts.answeredModel));
  }
  const chunks = simulatedMessageEvents(req, opts.answeredModel).map((e) => encodeSse({ event: e.event, data: JSON.stringify(e.data) }));
  return new Response(paced(chunks, opts.delayMs ?? 0), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
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

export function simulatedPlatformStream(req: SimulatedMessagesRequest, opts: { answeredModel?: string; delayMs?: number } = {}): Response {
  return new Response(paced(platformFrames(simulatedMessageEvents(req, opts.answeredModel)), opts.delayMs ?? 0), { headers: { "content-type": "application/vnd.amazon.eventstream" } });
}
