/**
 * The Responses API (`POST /v1/responses`) as a provider that serves it answers: the
 * chat simulator run through the same translations the gateway uses for providers that
 * do not. What only such a provider takes, it takes too: `previous_response_id` names
 * a response it gave to the same owner (the conversation so far is kept in memory, a
 * bounded number of them, unless `store: false`; an unknown id, or another owner's, is
 * 404 as at OpenAI, where a response belongs to the key's project), and built-in tools
 * are accepted. A whole (not streamed) answer to a request with web search shows one
 * `web_search_call` item before its message, as OpenAI's does; nothing is searched.
 * The mock provider serves it over HTTP, and the sandbox answers OpenAI-kind targets
 * with it.
 */
import { ApiError } from "../lib/errors.ts";
import { SseDecoder } from "../lib/sse.ts";
import { chatCompletionToResponse, chatStreamToResponses, type ResponsesEcho } from "../translate/chat-to-responses.ts";
import { responsesToChatRequest } from "../translate/responses-to-chat.ts";
import { textOf } from "./conversation.ts";
import { openAiError, type SimulatedChatOptions, simulatedChatCompletion } from "./openai-format.ts";

type Json = Record<string, unknown>;

/** How many responses are remembered for `previous_response_id`. */
const REMEMBERED = 1_000;
/**
 * And how much of them, as JSON text, in all: a count alone let a thousand requests of
 * the largest body size (or chains of them, each conversation repeating the one before)
 * hold tens of gigabytes.
 */
const REMEMBERED_CHARS = 64 * 1024 * 1024;

/**
 * The conversations behind the responses given: input items, then the answer's output
 * items, each under its owner (the credential it was given to), so an id is found only
 * by the owner it was given to. Kept as JSON text, so what they hold is counted; the
 * oldest are forgotten first, and a conversation larger than the whole budget is not kept.
 */
export class ResponsesMemory {
  private readonly items = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars = REMEMBERED_CHARS) {}

  get(owner: string, id: string): unknown[] | undefined {
    const text = this.items.get(`${owner}\n${id}`);
    return text === undefined ? undefined : (JSON.parse(text) as unknown[]);
  }

  keep(owner: string, id: string, conversation: unknown[]): void {
    const text = JSON.stringify(conversation);
    if (text.length > this.maxChars) return;
    const key = `${owner}\n${id}`;
    this.chars += text.length - (this.items.get(key)?.length ?? 0);
    this.items.delete(key);
    this.items.set(key, text);
    while (this.items.size > REMEMBERED || this.chars > this.maxChars) {
      const [oldest, kept] = this.items.entries().next().value as [string, string];
      this.items.delete(oldest);
      this.chars -= kept.length;
    }
  }
}

/** The simulator's chat ids follow from the request, so the same request repeats them; a kept response needs an id of its own. */
const newResponseId = () => `resp_${crypto.randomUUID().replaceAll("-", "")}`;

const asItems = (input: unknown): unknown[] => (typeof input === "string" ? [{ role: "user", content: input }] : (input as unknown[]));

/** Keeps the response's conversation once the stream's `response.completed` (or `.incomplete`) names its output. */
function remembered(memory: ResponsesMemory, owner: string, conversation: unknown[]): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new SseDecoder();
  return new TransformStream({
    transform(bytes, out) {
      out.enqueue(bytes);
      for (const b of decoder.push(bytes)) {
        if (!b.event || !/"response\.(?:completed|incomplete)"/.test(b.event.data)) continue;
        const r = (JSON.parse(b.event.data) as { response: { id: string; output: unknown[] } }).response;
        memory.keep(owner, r.id, [...conversation, ...r.output]);
      }
    },
  });
}

/** The last user message's text: what a web search would have searched for. */
function lastAsk(chat: Json): string {
  const messages = Array.isArray(chat.messages) ? (chat.messages as { role?: string; content?: unknown }[]) : [];
  return textOf(messages.findLast((m) => m.role === "user")?.content);
}

/** `owner`: whose stored responses the call may continue (the sandbox's organization, the mock's caller key). */
export async function simulatedResponses(
  body: Json,
  opts: SimulatedChatOptions,
  memory: ResponsesMemory,
  owner: string,
): Promise<Response> {
  if (typeof body.model !== "string" || (typeof body.input !== "string" && !Array.isArray(body.input)))
    return openAiError(400, "model and input (a string or an array of items) are required");
  let conversation = asItems(body.input);
  if (typeof body.previous_response_id === "string") {
    const earlier = memory.get(owner, body.previous_response_id);
    if (!earlier) return openAiError(404, `Previous response with id '${body.previous_response_id}' not found.`);
    conversation = [...earlier, ...conversation];
  }
  const functionTools = Array.isArray(body.tools) ? body.tools.filter((t) => (t as Json | null)?.type === "function") : undefined;
  let chat: Json;
  try {
    chat = responsesToChatRequest({ ...body, input: conversation, previous_response_id: null, tools: functionTools });
  } catch (err) {
    return openAiError(400, err instanceof ApiError ? err.message : "invalid request");
  }
  if (chat.stream === true) chat.stream_options = { include_usage: true };
  const echo = body as ResponsesEcho;
  const res = await simulatedChatCompletion(chat as never, opts);
  if (!res.ok || !res.body) return res;
  if (chat.stream === true) {
    const translated = res.body.pipeThrough(chatStreamToResponses(echo, newResponseId()));
    const events = body.store === false ? translated : translated.pipeThrough(remembered(memory, owner, conversation));
    return new Response(events, { headers: { "content-type": "text/event-stream" } });
  }
  const response = chatCompletionToResponse((await res.json()) as never, echo, newResponseId());
  if (opts.serviceTier !== undefined) response.service_tier = opts.serviceTier;
  if (Array.isArray(body.tools) && body.tools.some((t) => /^web_search/.test(String((t as Json | null)?.type))))
    response.output = [
      { type: "web_search_call", id: `ws_${crypto.randomUUID()}`, status: "completed", action: { type: "search", query: lastAsk(chat) } },
      ...(response.output as unknown[]),
    ];
  if (body.store !== false) memory.keep(owner, response.id as string, [...conversation, ...(response.output as unknown[])]);
  return Response.json(response);
}
