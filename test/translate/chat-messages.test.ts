/** The translation between the chat-completions and messages formats, table-driven in both directions. */
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { encodeSse, SseEventTooLarge } from "../../src/lib/sse.ts";
import { chatToMessagesRequest, DEFAULT_MAX_TOKENS, JSON_MODE_INSTRUCTION } from "../../src/translate/chat-to-messages.ts";
import { messagesStreamToChat, messagesToChatCompletion } from "../../src/translate/messages-to-chat.ts";
import { sseJson } from "../support/sse-text.ts";

const base = { model: "claude-sonnet-4-5" };

const REQUESTS: { name: string; chat: Record<string, unknown>; messages: Record<string, unknown> }[] = [
  {
    name: "system turns become system; max_tokens gets a default",
    chat: {
      ...base,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: "Use English." },
        { role: "user", content: "Hi" },
      ],
    },
    messages: {
      ...base,
      system: "Be brief.\n\nUse English.",
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
      max_tokens: DEFAULT_MAX_TOKENS,
    },
  },
  {
    name: "multi-turn; consecutive turns of one role merge",
    chat: {
      ...base,
      max_tokens: 10,
      messages: [
        { role: "user", content: "a" },
        { role: "user", content: "b" },
        { role: "assistant", content: "c" },
        { role: "user", content: "d" },
      ],
    },
    messages: {
      ...base,
      max_tokens: 10,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "c" }] },
        { role: "user", content: [{ type: "text", text: "d" }] },
      ],
    },
  },
  {
    name: "tools, tool_choice, tool calls and tool results",
    chat: {
      ...base,
      max_completion_tokens: 50,
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      messages: [
        { role: "user", content: "Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "sunny" },
      ],
    },
    messages: {
      ...base,
      max_tokens: 50,
      tools: [{ name: "get_weather", description: "Weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }],
      tool_choice: { type: "tool", name: "get_weather" },
      messages: [
        { role: "user", content: [{ type: "text", text: "Paris?" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "sunny" }] },
      ],
    },
  },
  {
    name: "images: data URLs become base64 sources, others URL sources",
    chat: {
      ...base,
      max_tokens: 5,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
            { type: "image_url", image_url: { url: "https://x.test/a.jpg" } },
          ],
        },
      ],
    },
    messages: {
      ...base,
      max_tokens: 5,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
            { type: "image", source: { type: "url", url: "https://x.test/a.jpg" } },
          ],
        },
      ],
    },
  },
  {
    name: "stop, temperature (capped at 1), top_p, JSON mode, user, stream",
    chat: {
      ...base,
      max_tokens: 5,
      stop: "END",
      temperature: 1.5,
      top_p: 0.9,
      response_format: { type: "json_object" },
      user: "u1",
      stream: true,
      messages: [{ role: "user", content: "x" }],
    },
    messages: {
      ...base,
      max_tokens: 5,
      stop_sequences: ["END"],
      temperature: 1,
      top_p: 0.9,
      system: JSON_MODE_INSTRUCTION,
      metadata: { user_id: "u1" },
      stream: true,
      messages: [{ role: "user", content: [{ type: "text", text: "x" }] }],
    },
  },
  {
    name: "tool_choice words",
    chat: { ...base, max_tokens: 5, tool_choice: "required", messages: [{ role: "user", content: "x" }] },
    messages: {
      ...base,
      max_tokens: 5,
      tool_choice: { type: "any" },
      messages: [{ role: "user", content: [{ type: "text", text: "x" }] }],
    },
  },
];

describe("chat-completions request -> messages request", () => {
  for (const c of REQUESTS) test(c.name, () => expect(chatToMessagesRequest(c.chat as never)).toEqual(c.messages));

  test("reasoning_effort is dropped, as documented: no thinking is turned on with an invented budget", () => {
    const out = chatToMessagesRequest({ ...base, reasoning_effort: "high", messages: [{ role: "user", content: "Prove it." }] } as never);
    expect(out).toEqual({
      ...base,
      messages: [{ role: "user", content: [{ type: "text", text: "Prove it." }] }],
      max_tokens: DEFAULT_MAX_TOKENS,
    });
  });

  test("what the messages format cannot express is refused clearly", () => {
    expect(() => chatToMessagesRequest({ ...base, n: 2, messages: [{ role: "user", content: "x" }] } as never)).toThrow("n must be 1");
    expect(() =>
      chatToMessagesRequest({
        ...base,
        messages: [{ role: "assistant", tool_calls: [{ id: "1", function: { name: "f", arguments: "{bad" } }] }],
      } as never),
    ).toThrow("not valid JSON");
  });

  test("a content part the messages format has no block for is a 400 naming it, never dropped", () => {
    const refused = (content: unknown) => {
      try {
        chatToMessagesRequest({
          ...base,
          messages: [
            { role: "system", content: "s" },
            { role: "user", content },
          ],
        } as never);
      } catch (err) {
        return { status: (err as ApiError).status, param: (err as ApiError).param };
      }
      return null;
    };
    const audio = { type: "input_audio", input_audio: { data: "AAAA", format: "wav" } };
    expect(refused([{ type: "text", text: "What is said here?" }, audio])).toEqual({ status: 400, param: "messages[1].content[1].type" });
    expect(refused([{ type: "file", file: { file_id: "file-1" } }])).toEqual({ status: 400, param: "messages[1].content[0].type" });
    expect(refused([{ type: "image_url", image_url: {} }])).toEqual({ status: 400, param: "messages[1].content[0].image_url" });
  });

  test("an assistant's tool call that is not a call (null, no function, a number for its id) is a 400 naming it, not a 500", () => {
    for (const [call, param] of [
      [null, "messages[1].tool_calls[0]"],
      [{ id: "t1", type: "function" }, "messages[1].tool_calls[0]"],
      [{ id: "t1", function: { name: 5, arguments: "{}" } }, "messages[1].tool_calls[0]"],
      [{ id: 7, function: { name: "f", arguments: "{}" } }, "messages[1].tool_calls[0].id"],
    ] as const) {
      let thrown: unknown;
      try {
        chatToMessagesRequest({
          ...base,
          messages: [
            { role: "user", content: "hi" },
            { role: "assistant", content: null, tool_calls: [call] },
          ],
        } as never);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect([(thrown as ApiError).status, (thrown as ApiError).param]).toEqual([400, param]);
    }
  });

  test("a tool result with an image keeps it as an image block; parallel_tool_calls false is one call at a time", () => {
    const out = chatToMessagesRequest({
      ...base,
      parallel_tool_calls: false,
      tools: [{ type: "function", function: { name: "shot", parameters: { type: "object" } } }],
      messages: [
        { role: "user", content: "Take a screenshot" },
        { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "shot", arguments: "{}" } }] },
        {
          role: "tool",
          tool_call_id: "t1",
          content: [
            { type: "text", text: "Here it is" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
    } as never);
    expect((out.messages as { content: unknown[] }[])[2]?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "t1",
        content: [
          { type: "text", text: "Here it is" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
        ],
      },
    ]);
    expect(out.tool_choice).toEqual({ type: "auto", disable_parallel_tool_use: true });
  });

  test("tool arguments nested past the body's bound are a 400, not a 500 when the provider's body is written", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    let thrown: unknown;
    try {
      chatToMessagesRequest({
        ...base,
        messages: [{ role: "assistant", tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: deep } }] }],
      } as never);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect([(thrown as ApiError).status, (thrown as ApiError).param]).toEqual([400, "messages[0].tool_calls[0].function.arguments"]);
  });
});

const ANSWERS: { name: string; message: Record<string, unknown>; choice: Record<string, unknown>; usage: Record<string, number> }[] = [
  {
    name: "text and end_turn",
    message: {
      id: "msg_1",
      model: "claude-sonnet-4-5-20250929",
      content: [
        { type: "text", text: "Hello " },
        { type: "text", text: "there" },
      ],
      stop_reason: "end_turn",
      usage: { input_tokens: 10, output_tokens: 3 },
    },
    choice: { index: 0, message: { role: "assistant", content: "Hello there", refusal: null }, logprobs: null, finish_reason: "stop" },
    usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
  },
  {
    name: "tool use",
    message: {
      id: "msg_2",
      model: "m",
      content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }],
      stop_reason: "tool_use",
      usage: { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 2 },
    },
    choice: {
      index: 0,
      message: {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      logprobs: null,
      finish_reason: "tool_calls",
    },
    usage: { prompt_tokens: 7, completion_tokens: 7, total_tokens: 14 },
  },
  {
    name: "max_tokens is length",
    message: {
      id: "msg_3",
      model: "m",
      content: [{ type: "text", text: "cut" }],
      stop_reason: "max_tokens",
      usage: { input_tokens: 1, output_tokens: 1 },
    },
    choice: { index: 0, message: { role: "assistant", content: "cut", refusal: null }, logprobs: null, finish_reason: "length" },
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  },
];

describe("messages answer -> chat completion", () => {
  for (const c of ANSWERS) {
    test(c.name, () => {
      const chat = messagesToChatCompletion(c.message as never);
      expect(chat).toMatchObject({ id: c.message.id, object: "chat.completion", model: c.message.model, usage: c.usage });
      expect((chat.choices as unknown[])[0]).toEqual(c.choice);
    });
  }

  test("a stop reason the table does not name is stop, whatever its name", () => {
    for (const stop of ["pause_turn", "something_new", "constructor", "toString"])
      expect(
        (messagesToChatCompletion({ id: "m", model: "m", content: [], stop_reason: stop }).choices as { finish_reason: unknown }[])[0]
          ?.finish_reason,
      ).toBe("stop");
  });

  test("cache reads and writes are chat's cached_tokens and cache_write_tokens (in the prompt count, as chat counts them)", () => {
    const chat = messagesToChatCompletion({
      id: "msg_4",
      model: "m",
      content: [{ type: "text", text: "hi" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 10, cache_read_input_tokens: 40, cache_creation_input_tokens: 5, output_tokens: 2 },
    });
    expect(chat.usage).toEqual({
      prompt_tokens: 55,
      completion_tokens: 2,
      total_tokens: 57,
      prompt_tokens_details: { cached_tokens: 40, cache_write_tokens: 5 },
    });
  });

  test("an answer in a shape no messages provider writes is the provider's 502, not a crash", () => {
    for (const content of ["plain text", [null], [{ type: "text", text: 5 }], [{ text: "no type" }]]) {
      let thrown: unknown;
      try {
        messagesToChatCompletion({ id: "msg_5", model: "m", content, stop_reason: "end_turn" } as never);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect([(thrown as ApiError).status, (thrown as ApiError).code]).toEqual([502, "provider_error"]);
    }
    // Usage null, a count that is text: read as unreported.
    const lenient = messagesToChatCompletion({
      id: "m",
      model: "m",
      content: [],
      usage: { input_tokens: "9", output_tokens: "5" },
    } as never);
    expect(lenient.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });
});

async function translateStream(events: { event: string; data: object }[]): Promise<any[]> {
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const e of events) c.enqueue(encodeSse({ event: e.event, data: JSON.stringify(e.data) }));
      c.close();
    },
  });
  const text = await new Response(source.pipeThrough(messagesStreamToChat())).text();
  return sseJson(text, "keep");
}

describe("messages stream -> chat chunks", () => {
  test("an event past the bound it is given errors the translated stream instead of being held", async () => {
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`event: content_block_delta\ndata: ${"x".repeat(8192)}`));
      },
    });
    expect(new Response(source.pipeThrough(messagesStreamToChat(4096))).text()).rejects.toThrow(SseEventTooLarge);
  });

  test("text stream, with usage and [DONE] at the end", async () => {
    const chunks = await translateStream([
      {
        event: "message_start",
        data: { type: "message_start", message: { id: "msg_1", model: "claude-x", usage: { input_tokens: 9, output_tokens: 1 } } },
      },
      { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } },
      { event: "ping", data: { type: "ping" } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } } },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4 } } },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
    expect(chunks[0]).toMatchObject({
      id: "msg_1",
      object: "chat.completion.chunk",
      model: "claude-x",
      choices: [{ delta: { role: "assistant", content: "" } }],
    });
    expect(chunks.slice(1, 3).map((c) => c.choices[0].delta.content)).toEqual(["Hel", "lo"]);
    expect(chunks[3].choices[0].finish_reason).toBe("stop");
    expect(chunks[4]).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } });
    expect(chunks[5]).toBe("[DONE]");
  });

  test("tool use streams as tool_calls deltas", async () => {
    const chunks = await translateStream([
      { event: "message_start", data: { type: "message_start", message: { id: "m", model: "c", usage: { input_tokens: 1 } } } },
      { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } },
      {
        event: "content_block_start",
        data: { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_9", name: "f", input: {} } },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"a":' } },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "1}" } },
      },
      { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } } },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
    expect(chunks[1].choices[0].delta.tool_calls[0]).toEqual({
      index: 0,
      id: "toolu_9",
      type: "function",
      function: { name: "f", arguments: "" },
    });
    expect(chunks[2].choices[0].delta.tool_calls[0]).toEqual({ index: 0, function: { arguments: '{"a":' } });
    expect(chunks[4].choices[0].finish_reason).toBe("tool_calls");
  });

  test("an error event becomes a chat error object, after the usage so far (the prompt was read)", async () => {
    const chunks = await translateStream([
      {
        event: "message_start",
        data: { type: "message_start", message: { id: "msg_1", model: "m", usage: { input_tokens: 30, output_tokens: 1 } } },
      },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "a" } } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "b" } } },
      { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "busy" } } },
    ]);
    expect(chunks.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 2 } });
    expect(chunks.at(-1)).toMatchObject({ error: { message: "busy", type: "overloaded_error" } });
  });

  test("a stream that ends without message_stop ends with the usage so far and a stream_interrupted error, never [DONE]", async () => {
    const chunks = await translateStream([
      {
        event: "message_start",
        data: { type: "message_start", message: { id: "msg_1", model: "m", usage: { input_tokens: 30, output_tokens: 1 } } },
      },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "a" } } },
    ]);
    expect(chunks.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 1 } });
    expect(chunks.at(-1)).toMatchObject({ error: { code: "stream_interrupted", type: "server_error" } });
    expect(chunks).not.toContain("[DONE]");
  });

  test("a stream whose stop reason came but not message_stop (a proxy that drops it) ends as a whole answer", async () => {
    const chunks = await translateStream([
      {
        event: "message_start",
        data: { type: "message_start", message: { id: "msg_1", model: "m", usage: { input_tokens: 30, output_tokens: 1 } } },
      },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "a" } } },
      { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4 } } },
    ]);
    expect(chunks.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 4 } });
    expect(chunks.at(-1)).toBe("[DONE]");
  });

  test("odd shapes in events (null, a number for text) are skipped, never a crash or a joined count", async () => {
    const chunks = await translateStream([
      {
        event: "message_start",
        data: { type: "message_start", message: { id: 5, model: null, usage: { input_tokens: "10", output_tokens: 1 } } },
      },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 42 } } },
      { event: "content_block_delta", data: null as unknown as object },
      { event: "message_delta", data: { type: "message_delta", delta: null, usage: null } },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
    expect(chunks.some((c: { choices?: { delta?: { content?: unknown } }[] }) => typeof c.choices?.[0]?.delta?.content === "number")).toBe(
      false,
    );
    expect(chunks.at(-2)).toMatchObject({ id: "chatcmpl-translated", usage: { prompt_tokens: 0, completion_tokens: 1 } });
    expect(chunks.at(-1)).toBe("[DONE]");
  });
});
