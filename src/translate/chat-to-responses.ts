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
import { encodeSse, type SseEvent, SseDecoder } from "../lib/sse.ts";
import {
  type ChatAnswer,
  callItem,
  envelope,
  messageItem,
  outputText,
  type ResponsesEcho,
  responseId,
  statusOf,
  usageOf,
} from "./responses-shape.ts";

export type { ResponsesEcho } from "./responses-shape.ts";

type Json = Record<string, unknown>;

/** `id`: the response's own id, where the caller keeps responses by id (else one derived from the chat answer's). */
export function chatCompletionToResponse(answer: ChatAnswer, echo: ResponsesEcho, id = responseId(answer.id)): Json {
  const choice = answer.choices?.[0];
  const finish = choice?.finish_reason ?? null;
  const output: Json[] = [];
  const text = choice?.message?.content ?? "";
  if (text !== "" || !choice?.message?.tool_calls?.length) output.push(messageItem(`msg_${id.slice(5)}`, text, "completed"));
  for (const [i, call] of (choice?.message?.tool_calls ?? []).entries()) {
    output.push(
      callItem(
        `fc_${id.slice(5)}_${i}`,
        { id: call.id ?? `call_${i}`, name: call.function?.name ?? "", arguments: call.function?.arguments ?? "" },
        "completed",
      ),
    );
  }
  return envelope(
    id,
    answer.created ?? Math.floor(Date.now() / 1000),
    answer.model ?? (typeof echo.model === "string" ? echo.model : ""),
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
 */
export function chatStreamToResponses(echo: ResponsesEcho, fixedId?: string): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new SseDecoder();
  let sequence = 0;
  let id = "";
  let created = Math.floor(Date.now() / 1000);
  let model = typeof echo.model === "string" ? echo.model : "";
  let started = false;
  let finished = false;
  let finish: string | null = null;
  let usage: Json | null = null;
  /** The text item, once its first text arrives. */
  let text: { outputIndex: number; itemId: string; text: string } | null = null;
  const calls = new Map<number, OpenCall>();
  const output: Json[] = [];
  let nextIndex = 0;

  const emit = (out: TransformStreamDefaultController<Uint8Array>, type: string, fields: Json) => {
    out.enqueue(encodeSse({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...fields }) }));
  };
  const snapshot = (status: string) => envelope(id, created, model, echo, status, output, status === "in_progress" ? null : usage, finish);

  const start = (out: TransformStreamDefaultController<Uint8Array>, chunk: ChatChunk) => {
    started = true;
    id = fixedId ?? responseId(chunk.id);
    created = chunk.created ?? created;
    model = chunk.model ?? model;
    emit(out, "response.created", { response: snapshot("in_progress") });
    emit(out, "response.in_progress", { response: snapshot("in_progress") });
  };

  const openText = (out: TransformStreamDefaultController<Uint8Array>) => {
    text = { outputIndex: nextIndex++, itemId: `msg_${id.slice(5)}`, text: "" };
    emit(out, "response.output_item.added", {
      output_index: text.outputIndex,
      item: { type: "message", id: text.itemId, status: "in_progress", role: "assistant", content: [] },
    });
    emit(out, "response.content_part.added", {
      item_id: text.itemId,
      output_index: text.outputIndex,
      content_index: 0,
      part: outputText(""),
    });
    return text;
  };

  const closeAll = (out: TransformStreamDefaultController<Uint8Array>) => {
    const t = text as { outputIndex: number; itemId: string; text: string } | null;
    if (t) {
      emit(out, "response.output_text.done", {
        item_id: t.itemId,
        output_index: t.outputIndex,
        content_index: 0,
        text: t.text,
        logprobs: [],
      });
      const part = outputText(t.text);
      emit(out, "response.content_part.done", { item_id: t.itemId, output_index: t.outputIndex, content_index: 0, part });
      const item = messageItem(t.itemId, t.text, "completed");
      output[t.outputIndex] = item;
      emit(out, "response.output_item.done", { output_index: t.outputIndex, item });
    }
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
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta ?? {};
    if (typeof delta.content === "string" && delta.content !== "") {
      const t = text ?? openText(out);
      t.text += delta.content;
      emit(out, "response.output_text.delta", {
        item_id: t.itemId,
        output_index: t.outputIndex,
        content_index: 0,
        delta: delta.content,
        logprobs: [],
      });
    }
    for (const tc of delta.tool_calls ?? []) {
      const index = tc.index ?? 0;
      let call = calls.get(index);
      if (!call) {
        call = {
          outputIndex: nextIndex++,
          itemId: `fc_${id.slice(5)}_${index}`,
          callId: tc.id ?? `call_${index}`,
          name: tc.function?.name ?? "",
          arguments: "",
        };
        calls.set(index, call);
        emit(out, "response.output_item.added", {
          output_index: call.outputIndex,
          item: { type: "function_call", id: call.itemId, call_id: call.callId, name: call.name, arguments: "", status: "in_progress" },
        });
      }
      const piece = tc.function?.arguments ?? "";
      if (piece !== "") {
        call.arguments += piece;
        emit(out, "response.function_call_arguments.delta", { item_id: call.itemId, output_index: call.outputIndex, delta: piece });
      }
    }
    if (choice.finish_reason) finish = choice.finish_reason;
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

interface ChatChunk {
  id?: string;
  created?: number;
  model?: string;
  choices?: {
    delta?: { content?: string | null; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] };
    finish_reason?: string | null;
  }[];
  usage?: ChatAnswer["usage"];
  error?: { code?: string; message?: string };
}
