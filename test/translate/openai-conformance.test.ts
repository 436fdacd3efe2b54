/**
 * What the gateway writes itself when it translates, and its own errors, against OpenAI's
 * published schemas: messages answers as chat completions (plain, streamed, tool use), chat
 * answers as Responses (plain, streamed, tool calls, a provider's error mid-stream), the
 * `response.failed` it ends a native Responses stream with, and its error bodies.
 */
import { describe, expect, test } from "bun:test";
import { errorBody, responsesError } from "../../src/lib/error-bodies.ts";
import { ApiError } from "../../src/lib/errors.ts";
import { encodeSse, SseDecoder } from "../../src/lib/sse.ts";
import { openAiWire } from "../../src/providers/openai-compatible/openai-wire.ts";
import { responsesWire } from "../../src/providers/openai-compatible/responses-wire.ts";
import { simulatedMessage, simulatedMessagesResponse } from "../../src/simulator/messages-format.ts";
import { simulatedChatCompletion } from "../../src/simulator/openai-format.ts";
import { chatCompletionToResponse, chatStreamToResponses } from "../../src/translate/chat-to-responses.ts";
import { messagesStreamToChat, messagesToChatCompletion } from "../../src/translate/messages-to-chat.ts";
import { expectChatStreamConforms, expectConforms, expectResponsesStreamConforms } from "../support/openai-schemas.ts";

const TOOL = {
  name: "get_weather",
  description: "The current weather in a city",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const MESSAGES = {
  plain: { model: "claude-haiku-4-5", max_tokens: 64, messages: [{ role: "user", content: "hello" }] },
  "tool use": {
    model: "claude-haiku-4-5",
    max_tokens: 64,
    messages: [{ role: "user", content: "Weather in Paris and Oslo?" }],
    tools: [TOOL],
  },
  "cut by max_tokens": { model: "claude-haiku-4-5", max_tokens: 2, messages: [{ role: "user", content: "hello" }] },
};

const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("messages answers as chat completions", () => {
  for (const [name, req] of Object.entries(MESSAGES)) {
    test(`${name}: the completion and every chunk conform`, async () => {
      expectConforms("CreateChatCompletionResponse", messagesToChatCompletion(simulatedMessage(req as never) as never));
      const events = await simulatedMessagesResponse({ ...req, stream: true } as never);
      expectChatStreamConforms(await text(events.body!.pipeThrough(messagesStreamToChat())));
    });
  }
});

describe("chat answers as Responses", () => {
  const echo = (extra: object = {}) => ({
    model: "gpt-4o",
    tools: [{ type: "function", name: "get_weather", parameters: TOOL.input_schema }],
    ...extra,
  });
  const chat = (extra: object) => ({ model: "gpt-4o", messages: [{ role: "user", content: "Weather in Paris?" }], ...extra });

  test("a whole answer, with text and with tool calls, conforms", async () => {
    for (const tools of [undefined, [{ type: "function", function: { name: "get_weather", parameters: TOOL.input_schema } }]]) {
      const answer = await (await simulatedChatCompletion(chat({ tools }) as never)).json();
      const response = chatCompletionToResponse(answer as never, echo());
      expectConforms("Response", response);
      expect((response.tools as { strict: unknown }[])[0]?.strict).toBe(true);
    }
  });

  test("a stream conforms event by event, usage included", async () => {
    const stream = await simulatedChatCompletion(chat({ stream: true, stream_options: { include_usage: true } }) as never);
    const events = expectResponsesStreamConforms(await text(stream.body!.pipeThrough(chatStreamToResponses(echo()))));
    expect(events.at(-1).type).toBe("response.completed");
    expect(events.at(-1).response.usage.input_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 0 });
  });

  test("a provider's error before any chunk: response.created, then response.failed with the requested model and a listed code", async () => {
    const refusal = new ApiError(502, "model_substitution_detected", "answered by another model");
    const events = expectResponsesStreamConforms(
      await text(new Response(openAiWire.errorEvent(refusal)).body!.pipeThrough(chatStreamToResponses(echo()))),
    );
    expect(events.map((e) => e.type)).toEqual(["response.created", "response.in_progress", "response.failed"]);
    expect(events[2].response.model).toBe("gpt-4o");
    expect(events[2].response.error).toEqual({
      code: "server_error",
      message: "answered by another model",
      gw: { code: "model_substitution_detected" },
    });
  });

  test("an error after some text keeps the numbering and conforms", async () => {
    const answer = await simulatedChatCompletion(chat({ stream: true }) as never);
    const chunks = (await answer.text()).split("\n\n").filter((b) => b.trim() && !b.includes("[DONE]"));
    const cut = new TextEncoder().encode(
      `${chunks.slice(0, 3).join("\n\n")}\n\n${new TextDecoder().decode(openAiWire.errorEvent(new ApiError(429, "rate_limit_exceeded", "slow down")))}`,
    );
    const events = expectResponsesStreamConforms(await text(new Response(cut).body!.pipeThrough(chatStreamToResponses(echo()))));
    expect(events.at(-1).response.error.code).toBe("rate_limit_exceeded");
  });
});

describe("the gateway's own response.failed on a native Responses stream", () => {
  const refusal = new ApiError(502, "model_substitution_detected", "answered by another model", {
    details: { requested: "gpt-4o", answered: "gpt-3.5" },
  });
  const created = {
    type: "response.created",
    sequence_number: 0,
    response: {
      id: "resp_9",
      object: "response",
      created_at: 1_700_000_000,
      status: "in_progress",
      model: "gpt-3.5",
      output: [],
      tools: [],
    },
  };

  test("in place of response.created: created, then failed, both conforming and numbered", async () => {
    const bytes = responsesWire.errorEvent(refusal, { event: "response.created", data: JSON.stringify(created), id: null });
    const events = expectResponsesStreamConforms(new TextDecoder().decode(bytes));
    expect(events.map((e) => e.type)).toEqual(["response.created", "response.failed"]);
    expect(events[1].response).toMatchObject({ id: "resp_9", model: "gpt-4o", status: "failed" });
  });

  test("in place of a later event: failed alone, with that event's number", () => {
    const later = { type: "response.in_progress", sequence_number: 1, response: { ...created.response } };
    const [block] = new SseDecoder().push(responsesWire.errorEvent(refusal, { event: later.type, data: JSON.stringify(later), id: null }));
    const failed = JSON.parse(block!.event!.data);
    expect([failed.type, failed.sequence_number]).toEqual(["response.failed", 1]);
    expectConforms("ResponseFailedEvent", failed);
  });
});

describe("error bodies", () => {
  const errors = [
    new ApiError(400, "invalid_request", "model is required", { param: "model" }),
    new ApiError(401, "unauthorized", "Invalid API key."),
    new ApiError(429, "spend_cap_exceeded", "The key's spend cap is reached."),
    new ApiError(502, "model_substitution_detected", "answered by another model", { details: { requested: "a", answered: "b" } }),
  ];

  test("the OpenAI envelope conforms, the gateway's details beside the listed members", () => {
    for (const err of errors) expectConforms("ErrorResponse", errorBody("openai", err));
  });

  test("a chat stream's error event is a conforming error response", () => {
    for (const err of errors)
      expectConforms("ErrorResponse", JSON.parse(new SseDecoder().push(openAiWire.errorEvent(err))[0]!.event!.data));
  });

  test("a Responses error takes the closest listed code and keeps the gateway's in gw.code", () => {
    expect(responsesError("spend_cap_exceeded", "m").code).toBe("rate_limit_exceeded");
    expect(responsesError("security_violation", "m").code).toBe("invalid_prompt");
    expect(responsesError("provider_error", "m")).toEqual({ code: "server_error", message: "m", gw: { code: "provider_error" } });
    // A plain SSE encoding round-trips it unchanged.
    expect(JSON.parse(new SseDecoder().push(encodeSse({ data: JSON.stringify(responsesError("x", "y")) }))[0]!.event!.data).gw.code).toBe(
      "x",
    );
  });
});
