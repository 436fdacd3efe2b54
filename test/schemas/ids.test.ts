/** Ids are bounded on every format: over MAX_ID_LENGTH is a 400 `invalid_request` naming the field; at the limit passes. */
import { describe, expect, test } from "bun:test";
import type { ApiError } from "../../src/lib/errors.ts";
import { chatCompletionRequest } from "../../src/schemas/chat-completions.ts";
import { MAX_ID_LENGTH } from "../../src/schemas/ids.ts";
import { messagesCountTokensRequest, messagesRequest } from "../../src/schemas/messages.ts";
import { responsesRequest } from "../../src/schemas/responses.ts";

const long = "x".repeat(MAX_ID_LENGTH + 1);
const atLimit = "x".repeat(MAX_ID_LENGTH);

function refusal(parse: () => unknown): ApiError {
  try {
    parse();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error("expected a 400");
}

const chat = (id: string) => ({
  model: "gpt-4o-mini",
  messages: [
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
    { role: "tool", tool_call_id: id, content: "ok" },
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "f", arguments: "{}" } }] },
  ],
});
const messages = (useId: string, resultId: string) => ({
  model: "claude-haiku-4-5",
  max_tokens: 5,
  messages: [
    { role: "assistant", content: [{ type: "tool_use", id: useId, name: "f", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: resultId, content: "ok" }] },
  ],
});

describe("ids are bounded", () => {
  test(`chat: tool_call_id and tool_calls[].id up to ${MAX_ID_LENGTH} characters`, () => {
    expect(() => chatCompletionRequest.parse(chat(atLimit))).not.toThrow();
    const e = refusal(() => chatCompletionRequest.parse(chat(long)));
    expect(e).toMatchObject({ status: 400, code: "invalid_request", param: "messages.1.tool_call_id" });
    expect(e.message).toBe(`messages.1.tool_call_id must be at most ${MAX_ID_LENGTH} characters (it has ${MAX_ID_LENGTH + 1})`);
    const body = chat("call_2");
    (body.messages[2] as any).tool_calls[0].id = long;
    expect(refusal(() => chatCompletionRequest.parse(body)).param).toBe("messages.2.tool_calls.0.id");
  });

  test("messages and count_tokens: tool_use.id and tool_use_id", () => {
    expect(() => messagesRequest.parse(messages(atLimit, atLimit))).not.toThrow();
    expect(refusal(() => messagesRequest.parse(messages(long, "t"))).param).toBe("messages.0.content.0.id");
    expect(refusal(() => messagesRequest.parse(messages("t", long))).param).toBe("messages.1.content.0.tool_use_id");
    const { max_tokens: _, ...count } = messages("t", long);
    expect(refusal(() => messagesCountTokensRequest.parse(count)).code).toBe("invalid_request");
  });

  test("Responses: call_id and item ids; a prefix (ai.proxy's params) names the field under it", () => {
    const body = (id: string) => ({
      model: "gpt-4o-mini",
      input: [
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: id, output: "ok" },
      ],
    });
    expect(() => responsesRequest.parse(body(atLimit))).not.toThrow();
    expect(refusal(() => responsesRequest.parse(body(long), "params")).param).toBe("params.input.1.call_id");
    expect(() => responsesRequest.parse({ model: "gpt-4o-mini", input: long })).not.toThrow();
  });
});
