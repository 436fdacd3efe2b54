/**
 * A chat completion as a Responses API answer: the message's text becomes one
 * `message` output item with an `output_text` part, each tool call a `function_call`
 * item, usage is renamed, and a finish by length marks the response incomplete.
 * Streams are translated chunk by chunk into the Responses API's typed events
 * (`response.created` ... `response.output_text.delta` ... `response.completed`), with
 * the numbering (`sequence_number`, `output_index`) the official clients rebuild the
 * answer from.
 */
import { responsesError } from "../lib/error-bodies.ts";
import { ApiError } from "../lib/errors.ts";
import { encodeSse, MAX_EVENT_CHARS, type SseEvent, SseDecoder } from "../lib/sse.ts";
import { MessageStream } from "./responses-message-stream.ts";
import {
  type ChatAnswer,
  type ChatChunk,
  callItem,
  envelope,
  messageItem,
  outputText,
  refusalPart,
  type ResponsesEcho,
  responseId,
  statusOf,
  type ToolCallDelta,
  usageOf,
} from "./responses-shape.ts";
import { signatureItem, thoughtSignatureOf } from "./thought-signature.ts";

export type { ResponsesEcho } from "./responses-shape.ts";

type Json = Record<string, unknown>;

/** A chat answer in a shape no chat provider writes: the provider's 502, not a crash of the translation. */
function oddShape(what: string): ApiError {
  return new ApiError(502, "provider_error", `The provider's chat answer could not be translated: ${what}.`);
}

/** The first choice's message, its members checked: a list where a list belongs, text where text does. */
function messageOf(answer: ChatAnswer): NonNullable<NonNullable<ChatAnswer["choices"]>[number]["message"]> {
  if (answer.choices !== undefined && answer.choices !== null && !Array.isArray(answer.choices)) throw oddShape("choices is not a list");
  const message = answer.choices?.[0]?.message ?? {};
  if (typeof message !== "object") throw oddShape("the message is not an object");
  if (message.content !== undefined && message.content !== null && typeof message.content !== "string")
    throw oddShape("the message's content is not text");
  if (message.tool_calls !== undefined && message.tool_calls !== null && !Array.isArray(message.tool_calls))
    throw oddShape("tool_calls is not a list");
  return message;
}

/** `id`: the response's own id, where the caller keeps responses by id (else one derived from the chat answer's). */
export function chatCompletionToResponse(answer: ChatAnswer, echo: ResponsesEcho, id = responseId(answer.id)): Json {
  const message = messageOf(answer);
  const raw = answer.choices?.[0]?.finish_reason;
  const finish = typeof raw === "string" ? raw : null;
  const output: Json[] = [];
  const text = message.content ?? "";
  const calls = message.tool_calls ?? [];
  // A refusal is the model's answer too: a refusal part, as OpenAI's Responses answers give it, never an empty message.
  const refusal = typeof message.refusal === "string" && message.refusal !== "" ? message.refusal : null;
  if (refusal !== null)
    output.push(messageItem(`msg_${id.slice(5)}`, [...(text ? [outputText(text)] : []), refusalPart(refusal)], "completed"));
  else if (text !== "" || !calls.length) output.push(messageItem(`msg_${id.slice(5)}`, text, "completed"));
  for (const [i, call] of calls.entries()) {
    const fn =
      typeof call === "object" && call !== null && typeof call.function === "object" && call.function !== null ? call.function : {};
    const callId = typeof call?.id === "string" ? call.id : `call_${i}`;
    // Google's thought signature goes out in a reasoning item the caller sends back (thought-signature.ts).
    const signature = thoughtSignatureOf(call);
    if (signature !== null) output.push(signatureItem(`rs_${id.slice(5)}_${i}`, callId, signature));
    output.push(
      callItem(
        `fc_${id.slice(5)}_${i}`,
        {
          id: callId,
          name: typeof fn.name === "string" ? fn.name : "",
          arguments: typeof fn.arguments === "string" ? fn.arguments : "",
        },
        "completed",
      ),
    );
  }
  return envelope(
    id,
    typeof answer.created === "number" ? answer.created : Math.floor(Date.now() / 1000),
    typeof answer.model === "string" ? answer.model : typeof echo.model === "string" ? echo.model : "",
    echo,
    statusOf(finish),
    output,
    usageOf(answer.usage),
    finish,
  );
}

interface OpenCall {
  outputIndex: number;
  itemId: string;
  callId: string;
  name: string;
  arguments: string;
}

/**
 * A chat-completions chunk stream (SSE bytes, usage chunk included) as a Responses
 * event stream (SSE bytes). The usage chunk after the finish gives `response.completed`
 * its usage, so the stream closes the response when the chat stream says [DONE] (or
 * ends). A provider error event ends the stream with `response.failed`.
 *
 * The answer's text and arguments are held to write the finished response, so they are
 * bounded as a whole answer is (`maxAnswerChars`, GW_MAX_ANSWER_BYTES): past it the
 * response fails, and the rest of the provider's stream passes unheld.
 */
export function chatStreamToResponses(
  echo: ResponsesEcho,
  fixedId?: string,
  maxAnswerChars = MAX_EVENT_CHARS,
): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new SseDecoder();
  /** Characters of text, refusal and arguments held so far. */
  let held = 0;
  let sequence = 0;
  let id = "";
  let created = Math.floor(Date.now() / 1000);
  let model = typeof echo.model === "string" ? echo.model : "";
  let started = false;
  let finished = false;
  let finish: string | null = null;
  let usage: Json | null = null;
  /** The message item, once its first text or refusal arrives. */
  let message: MessageStream | null = null;
  /** The tool calls in the order they came, and each by the provider's index and by its id. */
  const calls: OpenCall[] = [];
  const byIndex = new Map<number, OpenCall>();
  const byId = new Map<string, OpenCall>();
  const output: Json[] = [];
  let nextIndex = 0;

  const emit = (out: TransformStreamDefaultController<Uint8Array>, type: string, fields: Json) => {
    out.enqueue(encodeSse({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...fields }) }));
  };
  const snapshot = (status: string) => envelope(id, created, model, echo, status, output, status === "in_progress" ? null : usage, finish);

  const start = (out: TransformStreamDefaultController<Uint8Array>, chunk: ChatChunk) => {
    started = true;
    id = fixedId ?? responseId(typeof chunk.id === "string" ? chunk.id : undefined);
    if (typeof chunk.created === "number" && chunk.created > 0) created = chunk.created;
    if (typeof chunk.model === "string" && chunk.model !== "") model = chunk.model;
    emit(out, "response.created", { response: snapshot("in_progress") });
    emit(out, "response.in_progress", { response: snapshot("in_progress") });
  };

  /** The message item's emitter, made once: the stream's controller is the same for every chunk. */
  let emitter: ((type: string, fields: Json) => void) | null = null;
  const emitTo = (out: TransformStreamDefaultController<Uint8Array>) => (emitter ??= (type, fields) => emit(out, type, fields));
  const messagePiece = (out: TransformStreamDefaultController<Uint8Array>, kind: "text" | "refusal", piece: string) => {
    message ??= new MessageStream(nextIndex++, `msg_${id.slice(5)}`, emitTo(out));
    message.add(kind, piece, emitTo(out));
  };

  const closeAll = (out: TransformStreamDefaultController<Uint8Array>) => {
    const m = message as MessageStream | null;
    if (m) output[m.outputIndex] = m.close(emitTo(out));
    for (const call of calls.values()) {
      emit(out, "response.function_call_arguments.done", {
        item_id: call.itemId,
        output_index: call.outputIndex,
        arguments: call.arguments,
        name: call.name,
      });
      const item = callItem(call.itemId, { id: call.callId, name: call.name, arguments: call.arguments }, "completed");
      output[call.outputIndex] = item;
      emit(out, "response.output_item.done", { output_index: call.outputIndex, item });
    }
  };

  const complete = (out: TransformStreamDefaultController<Uint8Array>) => {
    if (finished || !started) return;
    finished = true;
    closeAll(out);
    const status = statusOf(finish);
    emit(out, status === "completed" ? "response.completed" : "response.incomplete", { response: snapshot(status) });
  };

  const fail = (out: TransformStreamDefaultController<Uint8Array>, code: string, message: string) => {
    if (!started) start(out, {});
    finished = true;
    emit(out, "response.failed", { response: { ...snapshot("failed"), error: responsesError(code, message) } });
  };

  /**
   * The open call a tool-call delta continues, if any: the one with its id, else the one at
   * its index (the last one when it has none) unless it names another id. OpenAI names the id
   * once and the index on every piece; Google's compatible endpoint sends each call whole,
   * with its id and no index, or 0 for every call, which must not join two calls in one.
   */
  const callOf = (tc: ToolCallDelta): OpenCall | undefined => {
    const named = typeof tc.id === "string" && tc.id !== "" ? tc.id : null;
    const known = named === null ? undefined : byId.get(named);
    if (known) return known;
    const at = typeof tc.index === "number" ? byIndex.get(tc.index) : calls.at(-1);
    return at && (named === null || named === at.callId) ? at : undefined;
  };

  const translate = (e: SseEvent, out: TransformStreamDefaultController<Uint8Array>) => {
    if (finished) return;
    if (e.data === "[DONE]") return complete(out);
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(e.data) as ChatChunk;
    } catch {
      return;
    }
    if (typeof chunk !== "object" || chunk === null) return;
    if (chunk.error) {
      const code = typeof chunk.error.code === "string" ? chunk.error.code : "provider_error";
      return fail(out, code, typeof chunk.error.message === "string" ? chunk.error.message : "The provider failed.");
    }
    if (!started) start(out, chunk);
    else if (typeof chunk.model === "string" && chunk.model !== "") model = chunk.model;
    if (typeof chunk.usage === "object" && chunk.usage !== null) usage = usageOf(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (typeof choice !== "object" || choice === null) return;
    const delta = typeof choice.delta === "object" && choice.delta !== null ? choice.delta : {};
    held += (typeof delta.content === "string" ? delta.content.length : 0) + (typeof delta.refusal === "string" ? delta.refusal.length : 0);
    for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : [])
      if (typeof tc?.function?.arguments === "string") held += tc.function.arguments.length;
    if (held > maxAnswerChars)
      return fail(
        out,
        "provider_error",
        `The provider's answer grew past ${maxAnswerChars} characters, the most this gateway holds to write a response.`,
      );
    if (typeof delta.content === "string" && delta.content !== "") messagePiece(out, "text", delta.content);
    if (typeof delta.refusal === "string" && delta.refusal !== "") messagePiece(out, "refusal", delta.refusal);
    for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      if (typeof tc !== "object" || tc === null) continue;
      let call = callOf(tc);
      if (!call) {
        const ordinal = calls.length;
        const callId = typeof tc.id === "string" && tc.id !== "" ? tc.id : `call_${ordinal}`;
        // Google sends a call's thought signature with its first piece: a whole reasoning item, before the call's.
        const signature = thoughtSignatureOf(tc);
        if (signature !== null) {
          const at = nextIndex++;
          output[at] = signatureItem(`rs_${id.slice(5)}_${ordinal}`, callId, signature);
          emit(out, "response.output_item.added", { output_index: at, item: output[at] });
          emit(out, "response.output_item.done", { output_index: at, item: output[at] });
        }
        call = {
          outputIndex: nextIndex++,
          itemId: `fc_${id.slice(5)}_${ordinal}`,
          callId,
          name: typeof tc.function?.name === "string" ? tc.function.name : "",
          arguments: "",
        };
        calls.push(call);
        byId.set(call.callId, call);
        if (typeof tc.index === "number") byIndex.set(tc.index, call);
        emit(out, "response.output_item.added", {
          output_index: call.outputIndex,
          item: { type: "function_call", id: call.itemId, call_id: call.callId, name: call.name, arguments: "", status: "in_progress" },
        });
      }
      const piece = tc.function?.arguments;
      if (typeof piece === "string" && piece !== "") {
        call.arguments += piece;
        emit(out, "response.function_call_arguments.delta", { item_id: call.itemId, output_index: call.outputIndex, delta: piece });
      }
    }
    if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") finish = choice.finish_reason;
  };

  return new TransformStream({
    transform(bytes, out) {
      for (const b of decoder.push(bytes)) if (b.event) translate(b.event, out);
    },
    flush(out) {
      for (const b of decoder.end().blocks) if (b.event) translate(b.event, out);
      if (finished) return;
      // Without [DONE]: an answer that said how it finished is whole (not every server writes [DONE]);
      // one that did not was cut, and the client's accumulated response must not look complete.
      if (finish !== null) complete(out);
      else fail(out, "stream_interrupted", "The provider's stream ended before the answer was complete.");
    },
  });
}
