/**
 * The assistant `message` item of a translated Responses stream: opened at its first
 * piece, with a part for its text and one for a refusal (chat's `delta.refusal`), each
 * opened as it first comes, its pieces as delta events, and closed in order with the
 * done events the official clients rebuild the item from.
 */
import { messageItem, outputText, refusalPart } from "./responses-shape.ts";

type Json = Record<string, unknown>;
type Emit = (type: string, fields: Json) => void;

interface Part {
  kind: "text" | "refusal";
  value: string;
}

export class MessageStream {
  private readonly parts: Part[] = [];

  constructor(
    readonly outputIndex: number,
    readonly itemId: string,
    emit: Emit,
  ) {
    emit("response.output_item.added", {
      output_index: outputIndex,
      item: { type: "message", id: itemId, status: "in_progress", role: "assistant", content: [] },
    });
  }

  /** One piece of text or refusal, its part opened first if it is the first of its kind. */
  add(kind: Part["kind"], piece: string, emit: Emit): void {
    let index = this.parts.findIndex((p) => p.kind === kind);
    if (index < 0) {
      index = this.parts.push({ kind, value: "" }) - 1;
      emit("response.content_part.added", { ...this.at(index), part: kind === "text" ? outputText("") : refusalPart("") });
    }
    (this.parts[index] as Part).value += piece;
    if (kind === "text") emit("response.output_text.delta", { ...this.at(index), delta: piece, logprobs: [] });
    else emit("response.refusal.delta", { ...this.at(index), delta: piece });
  }

  /** Each part's done events, then the item's; gives the finished item. */
  close(emit: Emit): Json {
    this.parts.forEach((p, i) => {
      if (p.kind === "text") emit("response.output_text.done", { ...this.at(i), text: p.value, logprobs: [] });
      else emit("response.refusal.done", { ...this.at(i), refusal: p.value });
      emit("response.content_part.done", { ...this.at(i), part: this.part(p) });
    });
    const only = this.parts[0];
    const item =
      this.parts.length === 1 && only?.kind === "text"
        ? messageItem(this.itemId, only.value, "completed")
        : messageItem(
            this.itemId,
            this.parts.map((p) => this.part(p)),
            "completed",
          );
    emit("response.output_item.done", { output_index: this.outputIndex, item });
    return item;
  }

  private at(contentIndex: number): Json {
    return { item_id: this.itemId, output_index: this.outputIndex, content_index: contentIndex };
  }

  private part(p: Part): Json {
    return p.kind === "text" ? outputText(p.value) : refusalPart(p.value);
  }
}
