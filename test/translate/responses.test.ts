/**
 * The Responses API translated to and from chat completions, checked by the official
 * openai client: a server in the test answers /v1/responses with the translation of a
 * chat answer (plain and streamed), and the client must rebuild the same response.
 */
import { afterAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { ApiError } from "../../src/lib/errors.ts";
import { encodeSse } from "../../src/lib/sse.ts";
import { chatCompletionToResponse, chatStreamToResponses } from "../../src/translate/chat-to-responses.ts";
import { responsesToChatRequest } from "../../src/translate/responses-to-chat.ts";
import { expectResponsesStreamConforms } from "../support/openai-schemas.ts";
import { sseJson } from "../support/sse-text.ts";

describe("request", () => {
  test("instructions, messages, images, function calls and their outputs, tools, JSON schema, limits", () => {
    const chat = responsesToChatRequest({
      model: "gpt-4o",
      instructions: "Be brief.",
      input: [
        { role: "developer", content: "House rules." },
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is in " },
            { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "low" },
          ],
        },
        { type: "function_call", call_id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
        { type: "function_call", call_id: "call_2", name: "lookup", arguments: '{"q":"y"}' },
        { type: "function_call_output", call_id: "call_1", output: "found x" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] },
      ],
      tools: [{ type: "function", name: "lookup", description: "Looks up", parameters: { type: "object", properties: {} }, strict: true }],
      tool_choice: { type: "function", name: "lookup" },
      text: { format: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true } },
      max_output_tokens: 50,
      temperature: 0.2,
      stream: true,
    });
    expect(chat).toEqual({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "system", content: "House rules." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is in " },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA", detail: "low" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } },
            { id: "call_2", type: "function", function: { name: "lookup", arguments: '{"q":"y"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "found x" },
        { role: "assistant", content: "Done." },
      ],
      tools: [
        {
          type: "function",
          function: { name: "lookup", description: "Looks up", parameters: { type: "object", properties: {} }, strict: true },
        },
      ],
      tool_choice: { type: "function", function: { name: "lookup" } },
      response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" }, strict: true } },
      max_tokens: 50,
      temperature: 0.2,
      stream: true,
    });
  });

  test("a plain string input is one user message", () => {
    expect(responsesToChatRequest({ model: "m", input: "Hi" })).toEqual({ model: "m", messages: [{ role: "user", content: "Hi" }] });
  });

  const refusal = (body: Record<string, unknown>) => {
    try {
      responsesToChatRequest({ model: "m", input: "Hi", ...body });
    } catch (err) {
      if (err instanceof ApiError) return { status: err.status, param: err.param };
      throw err;
    }
    return null;
  };

  test("what chat completions cannot express is a 400 naming the field", () => {
    expect(refusal({ previous_response_id: "resp_1" })).toEqual({ status: 400, param: "previous_response_id" });
    expect(refusal({ tools: [{ type: "web_search" }] })).toEqual({ status: 400, param: "tools[0].type" });
    expect(refusal({ input: [{ role: "user", content: [{ type: "input_file", file_id: "f" }] }] })).toEqual({
      status: 400,
      param: "input[0].content[0].type",
    });
    expect(refusal({ input: [{ role: "robot", content: "x" }] })).toEqual({ status: 400, param: "input[0].role" });
    expect(refusal({ input: 5 })).toEqual({ status: 400, param: "input" });
    expect(refusal({ text: { format: { type: "yaml" } } })).toEqual({ status: 400, param: "text.format.type" });
  });

  test("a function call's output given as parts is its text; an image there is a 400, never its base64 sent as text", () => {
    const call = { type: "function_call", call_id: "c1", name: "shot", arguments: "{}" };
    const parts = [
      { type: "input_text", text: "Saved " },
      { type: "input_text", text: "3 files." },
    ];
    const chat = responsesToChatRequest({ model: "m", input: [call, { type: "function_call_output", call_id: "c1", output: parts }] });
    expect((chat.messages as unknown[])[1]).toEqual({ role: "tool", tool_call_id: "c1", content: "Saved 3 files." });
    const image = { type: "input_image", image_url: `data:image/png;base64,${"A".repeat(10_000)}` };
    expect(refusal({ input: [call, { type: "function_call_output", call_id: "c1", output: [parts[0], image] }] })).toEqual({
      status: 400,
      param: "input[1].output[1].type",
    });
  });
});

const chatAnswer = {
  id: "chatcmpl-abc",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "gpt-4o-2024-08-06",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello there." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
};

function chunk(choices: unknown[], extra: Record<string, unknown> = {}) {
  return { id: "chatcmpl-abc", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-4o-2024-08-06", choices, ...extra };
}

const textChunks = [
  chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
  chunk([{ index: 0, delta: { content: "Hello" }, finish_reason: null }]),
  chunk([{ index: 0, delta: { content: " there." }, finish_reason: null }]),
  chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
  chunk([], { usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }),
];

const toolChunks = [
  chunk([
    {
      index: 0,
      delta: {
        role: "assistant",
        tool_calls: [{ index: 0, id: "call_9", type: "function", function: { name: "get_weather", arguments: "" } }],
      },
      finish_reason: null,
    },
  ]),
  chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, finish_reason: null }]),
  chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }, finish_reason: null }]),
  chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]),
  chunk([], { usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 } }),
];

function sseOf(chunks: unknown[]): ReadableStream<Uint8Array> {
  const bytes = [...chunks.map((c) => encodeSse({ data: JSON.stringify(c) })), encodeSse({ data: "[DONE]" })];
  return new ReadableStream({
    start(c) {
      for (const b of bytes) c.enqueue(b);
      c.close();
    },
  });
}

let next: () => Response;
const server = Bun.serve({ port: 0, fetch: () => next() });
afterAll(() => server.stop(true));
const client = new OpenAI({ baseURL: `http://127.0.0.1:${server.port}/v1`, apiKey: "test", maxRetries: 0 });

describe("answers, read by the official client", () => {
  test("a plain answer: output_text, usage and status as the client reads them", async () => {
    next = () => Response.json(chatCompletionToResponse(chatAnswer, { temperature: 0.2 }));
    const r = await client.responses.create({ model: "gpt-4o", input: "Hi" });
    expect(r.output_text).toBe("Hello there.");
    expect(r.status).toBe("completed");
    expect(r.id).toBe("resp_abc");
    expect(r.usage).toMatchObject({ input_tokens: 12, output_tokens: 3, total_tokens: 15 });
    expect(r.temperature).toBe(0.2);
  });

  test("a cut-short answer is incomplete with its reason", () => {
    const cut = { ...chatAnswer, choices: [{ ...chatAnswer.choices[0]!, finish_reason: "length" }] };
    expect(chatCompletionToResponse(cut, {})).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });

  test("a streamed text answer: the client's accumulated response equals the plain translation", async () => {
    next = () =>
      new Response(sseOf(textChunks).pipeThrough(chatStreamToResponses({})), { headers: { "content-type": "text/event-stream" } });
    const stream = client.responses.stream({ model: "gpt-4o", input: "Hi" });
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(["Hello", " there."]);
    expect(final.output_text).toBe("Hello there.");
    expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 3 });
    const plain = chatCompletionToResponse(chatAnswer, {}) as { output: unknown };
    // The client's stream helper adds `parsed` to text parts; the rest must match exactly.
    expect(final.output).toMatchObject(plain.output as typeof final.output);
    expect(final.output.length).toBe(1);
  });

  test("a streamed tool call: one function_call item with the whole arguments", async () => {
    next = () =>
      new Response(sseOf(toolChunks).pipeThrough(chatStreamToResponses({})), { headers: { "content-type": "text/event-stream" } });
    const events: string[] = [];
    const s = await client.responses.create({ model: "gpt-4o", input: "Weather?", stream: true });
    let completed: OpenAI.Responses.Response | null = null;
    for await (const e of s) {
      events.push(e.type);
      if (e.type === "response.completed") completed = e.response;
    }
    expect(events).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(completed!.output).toEqual([
      { type: "function_call", id: "fc_abc_0", call_id: "call_9", name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" },
    ]);
  });

  test("sequence numbers count every event from zero", async () => {
    const text = await new Response(sseOf(textChunks).pipeThrough(chatStreamToResponses({}))).text();
    const numbers = [...text.matchAll(/"sequence_number":(\d+)/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i));
  });
});

describe("what the chat answer holds beside text, and odd shapes", () => {
  const refusalChunks = [
    chunk([{ index: 0, delta: { role: "assistant", content: null, refusal: "" }, finish_reason: null }]),
    chunk([{ index: 0, delta: { refusal: "I can't " }, finish_reason: null }]),
    chunk([{ index: 0, delta: { refusal: "help with that." }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    chunk([], {
      usage: { prompt_tokens: 12, completion_tokens: 30, total_tokens: 42, completion_tokens_details: { reasoning_tokens: 25 } },
    }),
  ];

  test("a refusal is a refusal part, never an empty message, plain and streamed; reasoning tokens are kept", async () => {
    const refused = {
      ...chatAnswer,
      choices: [{ index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." }, finish_reason: "stop" }],
      usage: { ...chatAnswer.usage, completion_tokens_details: { reasoning_tokens: 2 } },
    };
    next = () => Response.json(chatCompletionToResponse(refused, {}));
    const r = await client.responses.create({ model: "gpt-4o", input: "Hi" });
    expect(r.output[0]).toMatchObject({ type: "message", content: [{ type: "refusal", refusal: "I can't help with that." }] });
    expect(r.usage?.output_tokens_details.reasoning_tokens).toBe(2);

    next = () =>
      new Response(sseOf(refusalChunks).pipeThrough(chatStreamToResponses({})), { headers: { "content-type": "text/event-stream" } });
    const stream = client.responses.stream({ model: "gpt-4o", input: "Hi" });
    const deltas: string[] = [];
    stream.on("response.refusal.delta", (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(["I can't ", "help with that."]);
    // The client's stream helper adds `parsed` to each part; the rest must match exactly.
    expect(final.output).toMatchObject([
      {
        type: "message",
        id: "msg_abc",
        status: "completed",
        role: "assistant",
        content: [{ type: "refusal", refusal: "I can't help with that." }],
      },
    ]);
    expect((final.output[0] as { content: unknown[] }).content.length).toBe(1);
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(25);
  });

  test("a streamed refusal conforms event by event", async () => {
    const text = await new Response(sseOf(refusalChunks).pipeThrough(chatStreamToResponses({ model: "gpt-4o" }))).text();
    const types = expectResponsesStreamConforms(text).map((e) => e.type);
    expect(types).toContain("response.refusal.done");
  });

  test("a whole answer in a shape no chat provider writes is the provider's 502, not a crash", () => {
    const odd = [
      { ...chatAnswer, choices: { 0: {} } },
      { ...chatAnswer, choices: [{ index: 0, message: { role: "assistant", content: 5 }, finish_reason: "stop" }] },
      { ...chatAnswer, choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: 5 }, finish_reason: "stop" }] },
    ];
    for (const answer of odd) {
      let thrown: unknown;
      try {
        chatCompletionToResponse(answer as never, {});
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect([(thrown as ApiError).status, (thrown as ApiError).code]).toEqual([502, "provider_error"]);
    }
    // Null where an object belongs, a number where text belongs: read as missing, the counts as 0.
    const lenient = chatCompletionToResponse(
      { ...chatAnswer, usage: { prompt_tokens: "12", completion_tokens: null }, choices: [{ message: { tool_calls: [null] } }] } as never,
      {},
    );
    expect(lenient.usage).toMatchObject({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    expect(lenient.output).toMatchObject([{ type: "function_call", call_id: "call_0", name: "", arguments: "" }]);
  });

  test("odd chunks in a stream are skipped: the response still completes with what was well formed", async () => {
    const odd = [
      chunk([{ index: 0, delta: { content: "Hi" }, finish_reason: null }]),
      chunk("nonsense" as never),
      chunk([null]),
      chunk([{ index: 0, delta: null, finish_reason: 5 }]),
      chunk([{ index: 0, delta: { content: 7, tool_calls: 5 }, finish_reason: null }]),
      chunk([{ index: 0, delta: { tool_calls: [null, { index: "x", function: { arguments: 9 } }] }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    ];
    const events = sseJson(await new Response(sseOf(odd).pipeThrough(chatStreamToResponses({}))).text());
    const last = events.at(-1);
    expect(last.type).toBe("response.completed");
    expect(last.response.output).toMatchObject([
      { type: "message", content: [{ type: "output_text", text: "Hi" }] },
      { type: "function_call" },
    ]);
  });

  test("a chat stream that ends without [DONE]: complete if it said how it finished, else response.failed", async () => {
    const ended = (chunks: unknown[]) =>
      new Response(
        new ReadableStream({
          start(c) {
            for (const x of chunks) c.enqueue(encodeSse({ data: JSON.stringify(x) }));
            c.close();
          },
        }).pipeThrough(chatStreamToResponses({})),
      ).text();
    expect(await ended(textChunks)).toContain("event: response.completed");
    const cut = await ended(textChunks.slice(0, 2));
    expect(cut).not.toContain("response.completed");
    expect(cut).toContain("event: response.failed");
    expect(cut).toContain('"gw":{"code":"stream_interrupted"}');
  });

  test("Azure's stream, whose first chunk has an empty id, model and time: the response still has its own id and the answering model", async () => {
    const filter = { id: "", object: "", created: 0, model: "", choices: [], prompt_filter_results: [{ prompt_index: 0 }] };
    const text = await new Response(sseOf([filter, ...textChunks]).pipeThrough(chatStreamToResponses({ model: "gpt-4o" }))).text();
    const events = sseJson(text);
    const done = events.at(-1).response;
    expect(done.id).toMatch(/^resp_[A-Za-z0-9]{8,}$/);
    expect(done.output[0].id).not.toBe("msg_");
    expect(done.model).toBe("gpt-4o-2024-08-06");
    expect(done.created_at).toBeGreaterThan(0);
  });

  test("Google's tool calls, each whole with its id and no index (or 0 for every one), stay two calls", async () => {
    const call = (id: string, name: string, args: string, index?: number) => ({
      ...(index === undefined ? {} : { index }),
      id,
      type: "function",
      function: { name, arguments: args },
    });
    for (const index of [undefined, 0]) {
      next = () =>
        new Response(
          sseOf([
            chunk([{ index: 0, delta: { role: "assistant", tool_calls: [call("function-call-1", "weather", '{"city":"Oslo"}', index)] } }]),
            chunk([{ index: 0, delta: { tool_calls: [call("function-call-2", "weather", '{"city":"Rome"}', index)] } }]),
            chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
          ]).pipeThrough(chatStreamToResponses({})),
          { headers: { "content-type": "text/event-stream" } },
        );
      const final = await client.responses.stream({ model: "gemini-2.5-flash", input: "Weather in Oslo and Rome?" }).finalResponse();
      expect(final.output.map((o) => (o.type === "function_call" ? [o.id, o.call_id, o.arguments] : o.type))).toEqual([
        ["fc_abc_0", "function-call-1", '{"city":"Oslo"}'],
        ["fc_abc_1", "function-call-2", '{"city":"Rome"}'],
      ]);
    }
  });

  test("an answer past what the translation may hold fails the response there, and holds nothing more", async () => {
    const text = await new Response(sseOf(textChunks).pipeThrough(chatStreamToResponses({}, undefined, 10))).text();
    const types = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(types.at(-1)).toBe("response.failed");
    expect(types.filter((t) => t === "response.output_text.delta")).toEqual(["response.output_text.delta"]);
    expect(types).not.toContain("response.completed");
  });
});
