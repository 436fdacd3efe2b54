/** The chat-completions wire format as the gateway reads it: `model` and `usage` on the body or on chunks. */
import { errorBody } from "../../lib/error-bodies.ts";
import { encodeSse } from "../../lib/sse.ts";
import type { WireFormat } from "../wire-format.ts";

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/** A non-empty text or tool-argument delta. */
const ANSWER_TEXT = /"(?:content|arguments)":"(?!")/;

export const openAiWire: WireFormat = {
  bodyMembers: ["model", "usage"],
  fromBody(body) {
    const u = (body.usage ?? {}) as Usage;
    // Embeddings are read for their members only, so `choices` is there on chat answers alone.
    const finish = (body.choices as { finish_reason?: unknown }[] | undefined)?.[0]?.finish_reason;
    return {
      model: typeof body.model === "string" ? body.model : null,
      promptTokens: u.prompt_tokens ?? 0,
      completionTokens: u.completion_tokens ?? 0,
      ...(typeof finish === "string" ? { finishReason: finish } : {}),
    };
  },
  fromEvent(e, acc) {
    // Parse only the chunks that can tell us something: the first, and the usage chunk.
    if (e.data === "[DONE]" || (acc.model !== null && !e.data.includes('"usage"'))) return false;
    let chunk: { model?: unknown; usage?: Usage | null };
    try {
      chunk = JSON.parse(e.data);
    } catch {
      return false;
    }
    if (chunk.usage) {
      acc.promptTokens = chunk.usage.prompt_tokens ?? acc.promptTokens;
      acc.completionTokens = chunk.usage.completion_tokens ?? acc.completionTokens;
    }
    if (acc.model === null && typeof chunk.model === "string") {
      acc.model = chunk.model;
      return true;
    }
    return false;
  },
  carriesAnswer(e) {
    // The role-only first chunk and the usage-only chunk carry no text; every other delta carries a token or more.
    return ANSWER_TEXT.test(e.data);
  },
  errorEvent(err) {
    // The chat-completions streams carry an error as a data object, then end.
    return encodeSse({ data: JSON.stringify(errorBody("openai", err)) });
  },
};
